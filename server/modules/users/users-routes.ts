// Admin-only account management (spec §7 /users/ and /users/{id}/).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { USER_LEVELS } from '../../db/schema.js';
import { currentUser } from '../../http/current-user.js';
import { ok } from '../../http/envelope.js';
import { PLAIN_TEXT, PLAIN_TEXT_MESSAGE } from '../../http/plain-text.js';
import { idParams, integerField } from '../../http/strict-numbers.js';
import { validate } from '../../http/validate.js';
import { PASSWORD_MIN_LENGTH } from '../auth/passwords.js';
import type { UsersService } from './users-service.js';

const optionalText = z.string().trim().min(1).max(200).regex(PLAIN_TEXT, PLAIN_TEXT_MESSAGE).nullable().optional();
const fields = {
  password: z.string().min(PASSWORD_MIN_LENGTH).max(256),
  user_level: z.enum(USER_LEVELS),
  display_name: z.string().trim().min(1).max(100).regex(PLAIN_TEXT, PLAIN_TEXT_MESSAGE),
  phone: z
    .string()
    .trim()
    .regex(/^\d{4,20}$/, 'phone must be 4 to 20 digits')
    .nullable(),
  international_code: z
    .string()
    .trim()
    .regex(/^\d{1,4}$/),
  wechat_account: optionalText,
};

const createSchema = z.object({
  account: z.string().trim().min(1).max(100),
  password: fields.password.optional(),
  user_level: fields.user_level,
  display_name: fields.display_name.optional(),
  phone: fields.phone.optional(),
  international_code: fields.international_code.optional(),
  wechat_account: fields.wechat_account,
});
const updateSchema = createSchema.omit({ account: true }).partial().extend({ disabled: z.boolean().optional() });
const listQuery = z.object({
  page: integerField(1).default(1),
  page_size: integerField(1, 100).default(20),
  search: z.string().trim().max(100).regex(PLAIN_TEXT, PLAIN_TEXT_MESSAGE).optional(),
});

export function registerUsersRoutes(app: FastifyInstance, users: UsersService): void {
  app.get('/users/', async (request) => {
    const q = validate(listQuery, request.query);
    return ok(request, await users.list(q.page, q.page_size, q.search || undefined));
  });
  app.post('/users/', async (request, reply) => {
    const body = validate(createSchema, request.body);
    reply.code(201);
    return { ...ok(request, await users.create(body)), code: 201 };
  });
  app.get('/users/:id/', async (request) => {
    const { id } = validate(idParams, request.params);
    return ok(request, await users.get(id));
  });
  app.put('/users/:id/', async (request) => {
    const { id } = validate(idParams, request.params);
    return ok(request, await users.update(currentUser(request), id, validate(updateSchema, request.body)));
  });
  app.delete('/users/:id/', async (request) => {
    const { id } = validate(idParams, request.params);
    await users.remove(currentUser(request), id);
    return ok(request, null);
  });
}
