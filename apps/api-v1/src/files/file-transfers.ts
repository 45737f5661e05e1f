import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FILE_TRANSFER_PREFIX, openDownload, type ProcedureContext, receiveUpload } from '@workcell/domain';
import { type Logger, sendFailure, v1Errors } from '@workcell/http';

type Capability = { Params: { workspaceId: string; token: string } };

/**
 * The local storage driver's capability URLs (docs/files.md), served by api-v1 outside the registry like the
 * reference pages (INFRASTRUCTURE_ROUTES names their prefix, so the start-up check accepts them): no bearer
 * credential, the URL's token is the capability. In a scope of their own: request bodies are not parsed at all
 * (the upload streams `request.raw` into storage, never buffering it), and every error is the v1 error document.
 *
 * - `PUT /v1/file-transfers/{workspaceId}/uploads/{token}`: 204 once stored; 400 when Content-Length or
 *   Content-Type is not what the intent declared; 409 `upload_already_received` / `upload_completed`; 410
 *   `upload_expired` after the intent's `expiresAt`; 404 for a URL that names nothing.
 * - `GET /v1/file-transfers/{workspaceId}/downloads/{token}`: the bytes (streamed); 410 `download_expired`; 409
 *   `file_not_available` for a file archived since, or whose bytes are gone.
 */
export async function installFileTransfers(fastify: FastifyInstance, ctx: ProcedureContext, logger: Logger): Promise<void> {
  const fail = (request: FastifyRequest, reply: FastifyReply, error: unknown) => {
    sendFailure(reply, request, error, v1Errors, logger);
    return reply;
  };
  await fastify.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // Leaves the body unread: the handler streams it.
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.put<Capability>(`${FILE_TRANSFER_PREFIX}/:workspaceId/uploads/:token`, async (request, reply) => {
      try {
        await receiveUpload(ctx, {
          workspaceId: request.params.workspaceId,
          token: request.params.token,
          contentType: request.headers['content-type'],
          contentLength: request.headers['content-length'],
          body: request.raw,
        });
        return reply.code(204).header('cache-control', 'no-store').send();
      } catch (error) {
        return fail(request, reply, error);
      }
    });
    scope.get<Capability>(`${FILE_TRANSFER_PREFIX}/:workspaceId/downloads/:token`, async (request, reply) => {
      try {
        const download = await openDownload(ctx, request.params.workspaceId, request.params.token);
        return reply.headers(download.headers).send(download.body);
      } catch (error) {
        return fail(request, reply, error);
      }
    });
  });
}
