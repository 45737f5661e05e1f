import { Controller, Req, Res, StreamableFile } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { createExport, downloadExport, getExport, invoke, listExports } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, single } from '@workcell/http';

type Id = { id: string };

/**
 * Exports (issue 14): createExport answers 202 with the export as its own operation and its `Location`; its job is
 * started from the outbox (the `export.created` event, delivery/post-commit.ts), never from here. Everything is
 * scoped to the calling credential; the download streams the stored result.
 */
@Controller()
export class ExportsController {
  @Operation('listExports')
  async listExports(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listExports, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createExport')
  async createExport(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const operation = await invoke(createExport, op, { ...(input.body as object) });
    reply.header('location', `/v1/exports/${operation.id}`);
    return single(operation);
  }

  @Operation('getExport')
  async getExport(@Op() op: Op, @Input() input: OperationInput<Id>) {
    return single(await invoke(getExport, op, { id: input.path.id }));
  }

  @Operation('downloadExport')
  async downloadExport(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    const download = await invoke(downloadExport, op, { id: input.path.id });
    reply.headers(download.headers);
    return new StreamableFile(download.body);
  }
}
