// The moments text edited in the image viewer is saved with its image: the owner's finished image
// only (a guarded write), read back in the list and detail, replayed twice to the same result,
// and refused to another user, to DESIGNER (no history), and for an image not finished.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generationDb } from '../../../server/modules/generation/store/generation-tables.js';
import { databaseKinds } from '../helpers/databases.js';
import { createFakeProvider } from './helpers/fake-providers.js';
import { createGenerationApp, type GenerationTestApp } from './helpers/generation-app.js';
import { seedRequest, type SeededImage } from './helpers/seed.js';

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`moments text on ${db.kind}`, () => {
    let t: GenerationTestApp;
    let general: { id: number; token: string };
    let images: SeededImage[];

    beforeAll(async () => {
      t = await createGenerationApp(db.kind, createFakeProvider().providers());
      general = await t.user('GENERAL');
      images = await seedRequest(t, general.token, 'seed-moments');
    });
    afterAll(() => t?.close());

    const put = (id: number, text: unknown, token = general.token) =>
      t.call<{ id: number; moments_text: string | null }>('PUT', `/api/user/generated-images/${id}/moments`, {
        token,
        headers: { 'idempotency-key': `k-${id}` },
        body: { moments_text: text },
      });

    it('saves the text with its image, twice to the same result, and reads it back', async () => {
      const id = images[0]!.id;
      const first = await put(id, '  New linen in sky blue — order by Friday.  ');
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ success: true, message: 'Moments text saved' });
      expect(first.body.data.moments_text).toBe('New linen in sky blue — order by Friday.');
      expect((await put(id, 'New linen in sky blue — order by Friday.')).body.data.moments_text).toBe('New linen in sky blue — order by Friday.');
      const detail = await t.call<{ moments_text: string }>('GET', `/api/user/generated-images/${id}`, { token: general.token });
      expect(detail.body.data.moments_text).toBe('New linen in sky blue — order by Friday.');
      const list = await t.call<{ items: { id: number; moments_text: string }[] }>('GET', '/api/user/generated-images?limit=50', { token: general.token });
      expect(list.body.data.items.find((i) => i.id === id)?.moments_text).toBe('New linen in sky blue — order by Friday.');
      // Emptied: no text.
      expect((await put(id, '   ')).body.data.moments_text).toBeNull();
    });

    it("refuses another user's image, a role without history, a too long text, and an unfinished image", async () => {
      const id = images[1]!.id;
      const other = await t.user('GENERAL');
      expect((await put(id, 'theirs', other.token)).status).toBe(404);
      const designer = await t.user('DESIGNER');
      expect((await put(id, 'theirs', designer.token)).status).toBe(403);
      expect((await put(id, 'x'.repeat(2001))).status).toBe(400);
      expect((await put(id, 42)).status).toBe(400);
      await generationDb(t.app.db.kysely)
        .updateTable('generated_images')
        .set({ status: 'failed' })
        .where('id', '=', id)
        .execute();
      const refused = await put(id, 'late');
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe('This image is not finished yet, so its text cannot be saved');
      const detail = await t.call<{ moments_text: string | null }>('GET', `/api/user/generated-images/${id}`, { token: general.token });
      expect(detail.body.data.moments_text).not.toBe('late');
    });
  });
}
