// The one declarative table of who may call what. Every route of every API group must have a line
// here: registering a route without one stops the server at start (deny by default).
// Keys are "METHOD path" with the path relative to its group's prefix, exactly as registered.
import type { UserLevel } from '../db/schema.js';

export type Access = 'public' | 'signed-in' | readonly UserLevel[];
export type ApiGroup = 'main' | 'image' | 'upscale' | 'third';

/** Spec §2's menu table: who sees each tool is who may call its routes. */
export const TOOL_ROLES = {
  imageProcessing: ['ADMIN', 'DESIGNER'],
  videoGeneration: ['ADMIN', 'GENERAL'],
  history: ['ADMIN', 'GENERAL'],
  workshop: ['ADMIN'],
  promptManagement: ['ADMIN'],
  users: ['ADMIN'],
} as const satisfies Record<string, readonly UserLevel[]>;

export const routeAccess: Record<ApiGroup, Record<string, Access>> = {
  main: {
    'POST /auth/login-password': 'public',
    'POST /auth/login': 'public',
    'POST /auth/login-wechat': 'public',
    'POST /auth/send-code': 'public',
    // Refresh and logout authenticate with the refresh token in the body, not the access token.
    'POST /user/refresh/': 'public',
    'POST /user/logout/': 'public',
    'GET /user/profile': 'signed-in',
    'PUT /user/password/': 'signed-in',
    'GET /users/': TOOL_ROLES.users,
    'POST /users/': TOOL_ROLES.users,
    'GET /users/:id/': TOOL_ROLES.users,
    'PUT /users/:id/': TOOL_ROLES.users,
    'DELETE /users/:id/': TOOL_ROLES.users,
    // Every signed-in user reads the team's prompts (the video workflow starts from the managed
    // image prompt); only prompt management writes them.
    'GET /prompts/': 'signed-in',
    'GET /prompts/:type/': 'signed-in',
    'POST /prompts/': TOOL_ROLES.promptManagement,
    'PUT /prompts/:type/': TOOL_ROLES.promptManagement,
    'DELETE /prompts/:type/': TOOL_ROLES.promptManagement,
    // Generation results of the video workflow, read back by the history page and after a cut stream.
    'POST /user/image-requests': TOOL_ROLES.videoGeneration,
    'GET /user/generated-images': TOOL_ROLES.history,
    'GET /user/generated-images/:id': TOOL_ROLES.history,
    // The moments text edited in the image viewer (the workflow's candidates and history).
    'PUT /user/generated-images/:id/moments': TOOL_ROLES.history,
    'PUT /user/video-prompts/:id': TOOL_ROLES.videoGeneration,
    'GET /user/video-generations': TOOL_ROLES.history,
    'POST /user/video-generations': TOOL_ROLES.videoGeneration,
    'GET /user/video-generations/events': TOOL_ROLES.history,
    'GET /user/video-generations/:id': TOOL_ROLES.history,
    'POST /user/video-generations/:id/retry': TOOL_ROLES.videoGeneration,
    'POST /user/video-generations/:id/cancel': TOOL_ROLES.videoGeneration,
    // A collection's reads (the grid, its event stream, the results sheet): the workflow's own tool.
    'GET /collections': TOOL_ROLES.videoGeneration,
    'GET /collections/:id': TOOL_ROLES.videoGeneration,
    'GET /collections/:id/events': TOOL_ROLES.videoGeneration,
    'GET /collections/:id/results.csv': TOOL_ROLES.videoGeneration,
    // Which engine serves each capability and what its setup check found (the settings page).
    'GET /generation/engines': 'signed-in',
    // The link's HMAC signature and expiry are the check (links are only made for the owner's rows).
    'GET /files/:id/:name': 'public',
    // Resumable uploads (tus): any signed-in user's own; the calls that use them check their roles.
    'POST /uploads/': 'signed-in',
    'GET /uploads/:id': 'signed-in',
    'PATCH /uploads/:id': 'signed-in',
    'DELETE /uploads/:id': 'signed-in',
    // Collection mode: the video workflow run for a season's fabrics at once.
    'POST /collections': TOOL_ROLES.videoGeneration,
    'POST /collections/:id/pause': TOOL_ROLES.videoGeneration,
    'POST /collections/:id/resume': TOOL_ROLES.videoGeneration,
    'POST /collections/:id/cancel': TOOL_ROLES.videoGeneration,
    'POST /collections/:id/retry-failed': TOOL_ROLES.videoGeneration,
    'POST /collections/:id/items/:itemId/pick': TOOL_ROLES.videoGeneration,
    'POST /collections/:id/items/:itemId/approve': TOOL_ROLES.videoGeneration,
    'POST /collections/:id/items/:itemId/retry': TOOL_ROLES.videoGeneration,
    'POST /collections/:id/items/:itemId/skip': TOOL_ROLES.videoGeneration,
    'POST /collections/:id/items/:itemId/regenerate': TOOL_ROLES.videoGeneration,
  },
  image: {
    'POST /analyze-images-json-stream': TOOL_ROLES.videoGeneration,
    'POST /analyze-requests/:request_id/cancel': TOOL_ROLES.videoGeneration,
    'POST /regenerate-stream': TOOL_ROLES.videoGeneration,
    'POST /regenerations/:generation_id/cancel': TOOL_ROLES.videoGeneration,
    'POST /video-prompts-stream': TOOL_ROLES.videoGeneration,
  },
  upscale: {
    'GET /models': TOOL_ROLES.imageProcessing,
    'POST /upscale/single': TOOL_ROLES.imageProcessing,
    'POST /upscale/batch': TOOL_ROLES.imageProcessing,
    // Only the job's owner: checked by the route against the user who started it.
    'DELETE /upscale/jobs/:key': TOOL_ROLES.imageProcessing,
    // The link's HMAC signature and expiry are the check, so <img src> works without a bearer header.
    'GET /results/:id/:filename': 'public',
    // The converted graphs, for upscaling on the designer's device (graph-routes.ts).
    'GET /models/:name/graphs/manifest.json': TOOL_ROLES.imageProcessing,
    'GET /models/:name/graphs/:hash/:file': TOOL_ROLES.imageProcessing,
  },
  third: {
    'GET /workshop/models': TOOL_ROLES.workshop,
    'GET /workshop/items': TOOL_ROLES.workshop,
    'POST /workshop/items': TOOL_ROLES.workshop,
    'GET /workshop/items/:id': TOOL_ROLES.workshop,
    'GET /workshop/items/:id/events': TOOL_ROLES.workshop,
    'POST /workshop/items/:id/cancel': TOOL_ROLES.workshop,
    'POST /workshop/items/:id/retry': TOOL_ROLES.workshop,
  },
};

export function accessFor(group: ApiGroup, method: string, path: string): Access | undefined {
  const m = method === 'HEAD' ? 'GET' : method;
  return routeAccess[group][`${m} ${path === '' ? '/' : path}`];
}
