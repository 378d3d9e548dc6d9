// Spec §7 sign-in and session calls, mounted under the main API prefix.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../http/current-user.js';
import { ok } from '../../http/envelope.js';
import { PLAIN_TEXT, PLAIN_TEXT_MESSAGE } from '../../http/plain-text.js';
import { validate } from '../../http/validate.js';
import { toUserView, userViewSchema } from '../users/user-view.js';
import { codeSentSchema, sessionGrantSchema, type AuthService } from './auth-service.js';
import { scheduleExpirySweep } from './expiry-sweep.js';
import { PASSWORD_MIN_LENGTH } from './passwords.js';

const required = z.string().trim().min(1).max(200).regex(PLAIN_TEXT, PLAIN_TEXT_MESSAGE);
const password = z.string().min(1).max(256);
const phone = z
  .string()
  .trim()
  .regex(/^\d{4,20}$/, 'phone must be 4 to 20 digits');
const internationalCode = z
  .string()
  .trim()
  .regex(/^\d{1,4}$/, 'international_code must be 1 to 4 digits')
  .default('86');

const schemas = {
  loginPassword: z.object({ account: required, password }),
  loginCode: z.object({
    phone,
    code: z.string().regex(/^\d{6}$/, 'code must be 6 digits'),
    international_code: internationalCode,
  }),
  loginWechat: z.object({ wechat_account: required, password }),
  sendCode: z.object({ phone, international_code: internationalCode }),
  refresh: z.object({ refresh_token: z.string().min(1).max(512) }),
  logout: z.object({ refresh_token: z.string().max(512).optional() }),
  changePassword: z.object({
    old_password: password,
    new_password: z.string().min(PASSWORD_MIN_LENGTH).max(256),
  }),
};

/** What a route tells the OpenAPI document: its summary, body and the envelope's data. */
const doc = (summary: string, body: z.ZodType | undefined, data: z.ZodType) => ({
  config: { openapi: { summary, tags: ['auth'], ...(body ? { body } : {}), response: { data } } },
});

export function registerAuthRoutes(app: FastifyInstance, auth: AuthService): void {
  // The module that writes the tokens, codes and counters keeps them from piling up.
  scheduleExpirySweep(app, () => auth.sweepExpired());
  app.post(
    '/auth/login-password',
    doc('Sign in with account and password', schemas.loginPassword, sessionGrantSchema),
    async (request) => {
      const body = validate(schemas.loginPassword, request.body);
      return ok(request, await auth.loginWithAccount(body.account, body.password, request.ip));
    },
  );
  app.post(
    '/auth/login',
    doc('Sign in with phone and verification code', schemas.loginCode, sessionGrantSchema),
    async (request) => {
      const body = validate(schemas.loginCode, request.body);
      return ok(
        request,
        await auth.loginWithCode(body.phone, body.international_code, body.code, request.ip),
      );
    },
  );
  app.post(
    '/auth/login-wechat',
    doc('Sign in with the enterprise chat account', schemas.loginWechat, sessionGrantSchema),
    async (request) => {
      const body = validate(schemas.loginWechat, request.body);
      return ok(request, await auth.loginWithWechat(body.wechat_account, body.password, request.ip));
    },
  );
  app.post(
    '/auth/send-code',
    doc('Text a six-digit sign-in code', schemas.sendCode, codeSentSchema),
    async (request) => {
      const body = validate(schemas.sendCode, request.body);
      return ok(request, await auth.sendCode(body.phone, body.international_code, request.ip), 'code_sent');
    },
  );
  app.post(
    '/user/refresh/',
    doc('A new token pair for a refresh token (rotated)', schemas.refresh, sessionGrantSchema),
    async (request) => {
      const body = validate(schemas.refresh, request.body);
      return ok(request, await auth.refresh(body.refresh_token));
    },
  );
  app.post(
    '/user/logout/',
    doc('Sign out (revokes the refresh token)', schemas.logout, z.null()),
    async (request) => {
      const body = validate(schemas.logout, request.body);
      await auth.logout(body.refresh_token);
      return ok(request, null, 'logged_out');
    },
  );
  app.get('/user/profile', doc('The signed-in user', undefined, userViewSchema), async (request) =>
    ok(request, toUserView(currentUser(request))),
  );
  app.put(
    '/user/password/',
    doc('Change the password (signs every other device out)', schemas.changePassword, z.null()),
    async (request) => {
      const body = validate(schemas.changePassword, request.body);
      await auth.changePassword(currentUser(request), body.old_password, body.new_password);
      return ok(request, null, 'password_changed');
    },
  );
}
