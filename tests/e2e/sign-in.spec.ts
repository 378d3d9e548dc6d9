import { expect, test } from '@playwright/test';
import { createUser, lastCodeFor, storageOf, type TestUser } from './shell-helpers';

// Spec §2 "Login screen", §4 login states, §5 rules — against the real companion server.
let designer: TestUser;
let general: TestUser;

test.beforeAll(async ({ request }) => {
  designer = await createUser(request, 'DESIGNER');
  general = await createUser(request, 'GENERAL');
});

test('account sign-in: banner, success toast, then / with the session stored', async ({ page }) => {
  await page.goto('/#/login');
  await page.getByTestId('login-username').fill(designer.account);
  await page.getByTestId('login-password').fill(designer.password);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-success')).toContainText(designer.displayName);
  await expect(page.getByText('Login successful')).toBeVisible();
  await expect(page).toHaveURL(/#\/$/);
  await expect(page.getByTestId('home-greeting')).toContainText(designer.displayName);
  const stored = await storageOf(page);
  expect(stored.isLoggedIn).toBe('true');
  expect(stored.token).toMatch(/^ey/);
  expect(stored.refreshToken).toBeTruthy();
  expect(stored.username).toBe(designer.account);
  expect(JSON.parse(stored.userInfo ?? '{}')).toMatchObject({
    account: designer.account,
    user_level: 'DESIGNER',
  });
  // History was replaced: going back does not return to the sign-in screen.
  await page.goBack();
  await expect(page).not.toHaveURL(/#\/login/);
});

test('wrong password shows the server text in the error banner, as text', async ({ page }) => {
  await page.goto('/#/login');
  await page.getByTestId('login-username').fill(designer.account);
  await page.getByTestId('login-password').fill('wrong-password');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-error')).toHaveText('Login failed, check your credentials');
  await expect(page).toHaveURL(/#\/login$/);
  expect((await storageOf(page)).token).toBeUndefined();
});

test('validation: whitespace username, short password, keyed errors cleared on edit', async ({ page }) => {
  await page.goto('/#/login');
  await page.getByTestId('login-username').fill('   ');
  await page.getByTestId('login-password').fill('12345');
  await page.getByTestId('login-submit').click();
  await expect(page.getByText('Please enter your username')).toBeVisible();
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
  await page.getByTestId('login-username').fill('someone');
  await expect(page.getByText('Please enter your username')).toHaveCount(0);
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
  // One visibility toggle serves both password fields.
  await page.getByTestId('toggle-password').click();
  await expect(page.getByTestId('login-password')).toHaveAttribute('type', 'text');
  await page.getByTestId('login-mode').getByRole('radio', { name: 'SmartLink' }).click();
  await expect(page.getByTestId('smartlink-password')).toHaveAttribute('type', 'text');
  // SmartLink keeps its own errors.
  await page.getByTestId('smartlink-submit').click();
  await expect(page.getByText('Please enter your username')).toBeVisible();
  await expect(page.getByText('Please enter your password')).toBeVisible();
});

test('phone sign-in with the texted code; countdown; code capped at six digits', async ({ page }) => {
  await page.goto('/#/login');
  await page.getByTestId('login-method').getByRole('radio', { name: 'Phone' }).click();
  await expect(page.getByTestId('login-country')).toHaveValue('86');
  await expect(page.getByTestId('login-country').locator('option')).toHaveText([
    /\+86/,
    /\+84/,
    /\+66/,
    /\+62/,
  ]);
  // A code needs a phone number.
  await page.getByTestId('send-code').click();
  await expect(page.getByText('Please enter your phone number')).toBeVisible();
  await page.getByTestId('login-phone').fill(general.phone);
  const send = page.getByTestId('send-code');
  await send.click();
  await expect(send).toBeDisabled();
  await expect(send).toHaveText(/^(60|59|58)s$/);
  const first = Number((await send.textContent())!.replace('s', ''));
  await expect(page.getByText(`Code sent to +86 ${general.phone}`)).toBeVisible();
  // The countdown moves on by itself (read against the first figure: a loaded machine may render late).
  await expect.poll(async () => Number((await send.textContent())!.replace('s', '')), { timeout: 5000 }).toBeLessThan(first);
  await expect(send).toHaveText(/^(5\d)s$/);
  await page.getByTestId('login-code').fill('1234567890');
  await expect(page.getByTestId('login-code')).toHaveValue('123456');
  await page.getByTestId('login-code').fill('a1b2');
  await expect(page.getByTestId('login-code')).toHaveValue('12');
  await page.getByTestId('login-code').fill('123');
  await page.getByTestId('login-submit').click();
  await expect(page.getByText('The verification code must be 6 digits')).toBeVisible();
  await page.getByTestId('login-code').fill(lastCodeFor(general.phone));
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/#\/$/);
  await expect(page.getByTestId('home-greeting')).toContainText(general.displayName);
});

test('a refused code request is told in a toast, and the countdown follows Retry-After', async ({
  page,
  request,
}) => {
  const texter = await createUser(request, 'DESIGNER');
  // The first code goes out before the page opens, so the page's own request comes too soon.
  const first = await request.post('/api/auth/send-code', {
    data: { phone: texter.phone, international_code: '86' },
  });
  expect(first.status()).toBe(200);
  await page.goto('/#/login');
  await page.getByTestId('login-method').getByRole('radio', { name: 'Phone' }).click();
  await page.getByTestId('login-phone').fill(texter.phone);
  // At least a second after the first send, so Retry-After is below the default 60 s.
  await page.waitForTimeout(1000);
  const refused = page.waitForResponse((r) => r.url().endsWith('/api/auth/send-code'));
  await page.getByTestId('send-code').click();
  const response = await refused;
  expect(response.status()).toBe(429);
  const retryAfter = Number(response.headers()['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThan(60);
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Failed to send verification code' });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText(`Please wait ${retryAfter} s before requesting another code`);
  const send = page.getByTestId('send-code');
  await expect(send).toBeDisabled();
  await expect(send).toHaveText(new RegExp(`^(${retryAfter}|${retryAfter - 1})s$`));
  await expect(page.getByText(/^Code sent to/)).toHaveCount(0);
});

test('while signing in, the fields and the password visibility toggle are locked', async ({ page }) => {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/auth/login-password', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/#/login');
  await page.getByTestId('login-username').fill(designer.account);
  await page.getByTestId('login-password').fill('wrong-password');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-password')).toBeDisabled();
  await expect(page.getByTestId('toggle-password')).toBeDisabled();
  release();
  await expect(page.getByTestId('login-error')).toBeVisible();
  await expect(page.getByTestId('toggle-password')).toBeEnabled();
  await page.getByTestId('toggle-password').click();
  await expect(page.getByTestId('login-password')).toHaveAttribute('type', 'text');
});

test('SmartLink sign-in, and its failure told in a toast', async ({ page }) => {
  await page.goto('/#/login');
  await page.getByTestId('login-mode').getByRole('radio', { name: 'SmartLink' }).click();
  await page.getByTestId('smartlink-username').fill(general.wechat);
  await page.getByTestId('smartlink-password').fill('not-the-password');
  await page.getByTestId('smartlink-submit').click();
  await expect(page.getByText('SmartLink login failed, please check your credentials')).toBeVisible();
  await page.getByTestId('smartlink-password').fill(general.password);
  await page.getByTestId('smartlink-submit').click();
  await expect(page.getByTestId('smartlink-submit')).toBeDisabled();
  await expect(page).toHaveURL(/#\/$/);
  expect(JSON.parse((await storageOf(page)).userInfo ?? '{}')).toMatchObject({ user_level: 'GENERAL' });
});

test('the help panel opens with three illustrated steps, the tip and the admin line', async ({ page }) => {
  await page.goto('/#/login');
  const panel = page.getByTestId('help-panel');
  await panel.getByText('How do I get an account?').click();
  await expect(panel.locator('ol > li')).toHaveCount(3);
  await expect(panel.locator('ol svg')).toHaveCount(3);
  await expect(panel.getByText('Forgot your password? Contact your administrator.')).toBeVisible();
});
