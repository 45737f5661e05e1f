import { Op } from '@workcell/auth-kit';
import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  archiveCallNote,
  createCallNote,
  createContact,
  getCallNote,
  getContact,
  getContactGroup,
  invoke,
  listCallNotes,
  listContactGroups,
  listContacts,
  type ProcedureContext,
  requireTokenMember,
  updateContact,
} from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { bodyAliasId, currentResource, lastWriterWins, legacyPage, pick, seekOf, toLegacy } from '../legacy/resources.js';

type Page = { page?: number; limit?: number };
const CONTACT = ['kind', 'name', 'email', 'phone', 'organizationId', 'contactGroupIds', 'address'];
const CALL_NOTE = ['contactId', 'content', 'occurredAt'];
const since = (cursor: string | undefined) => (cursor === undefined ? {} : { cursor });

/** v0 contacts, contact groups (reads; writes are unavailable) and call notes over the v1 procedures. */
@Controller()
export class ContactsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @LegacyOperation('legacyGetContacts')
  async listContacts(@Op() op: Op, @Input() input: OperationInput<Record<string, string>, Page>) {
    return (
      await legacyPage(
        this.ctx,
        input.query,
        (cursor, limit) => invoke(listContacts, op, { limit, ...since(cursor) }),
        seekOf(this.ctx, op.auth.workspaceId, 'contacts', 'listContacts', { kind: null, contactGroupId: null, q: null }),
      )
    ).map(toLegacy);
  }

  @LegacyOperation('legacyGetContactsById')
  async getContact(@Op() op: Op, @Input() input: OperationInput<{ _id: string }>) {
    return toLegacy(await currentResource(op, getContact, input.path._id, 'contact'));
  }

  @LegacyOperation('legacyPostContacts')
  async createContact(@Op() op: Op, @Input() input: OperationInput, @Res({ passthrough: true }) reply: FastifyReply) {
    const { resource } = await invoke(createContact, op, { ...pick(input.body, CONTACT) });
    void reply.status(201);
    return toLegacy(resource);
  }

  @LegacyOperation('legacyPutContactsById')
  async updateContact(@Op() op: Op, @Input() input: OperationInput<{ _id: string }>) {
    return this.writeContact(op, input.path._id, input.body);
  }

  @LegacyOperation('legacyPutContacts')
  async updateContactByBody(@Op() op: Op, @Input() input: OperationInput) {
    return this.writeContact(op, bodyAliasId(input.body), input.body);
  }

  private async writeContact(op: Op, id: string, body: unknown) {
    const { resource } = await lastWriterWins(id, async () => {
      const current = await currentResource(op, getContact, id, 'contact');
      return invoke(updateContact, op, { id: current.id, expectedVersion: current.version, ...pick(body, CONTACT) });
    });
    return toLegacy(resource);
  }

  @LegacyOperation('legacyGetContactgroups')
  async listGroups(@Op() op: Op, @Input() input: OperationInput<Record<string, string>, Page>) {
    return (
      await legacyPage(
        this.ctx,
        input.query,
        (cursor, limit) => invoke(listContactGroups, op, { limit, ...since(cursor) }),
        seekOf(this.ctx, op.auth.workspaceId, 'contactGroups', 'listContactGroups', { parentId: null }),
      )
    ).map(toLegacy);
  }

  @LegacyOperation('legacyGetContactgroupsById')
  async getGroup(@Op() op: Op, @Input() input: OperationInput<{ _id: string }>) {
    return toLegacy(await currentResource(op, getContactGroup, input.path._id, 'contact group'));
  }

  @LegacyOperation('legacyGetCallnotes')
  async listCallNotes(@Op() op: Op, @Input() input: OperationInput<Record<string, string>, Page>) {
    return (
      await legacyPage(
        this.ctx,
        input.query,
        (cursor, limit) => invoke(listCallNotes, op, { limit, ...since(cursor) }),
        seekOf(this.ctx, op.auth.workspaceId, 'callNotes', 'listCallNotes', { contactId: null }),
      )
    ).map(toLegacy);
  }

  @LegacyOperation('legacyGetCallnotesById')
  async getCallNote(@Op() op: Op, @Input() input: OperationInput<{ _id: string }>) {
    return toLegacy(await currentResource(op, getCallNote, input.path._id, 'call note'));
  }

  @LegacyOperation('legacyPostCallnotes')
  async createCallNote(@Op() op: Op, @Input() input: OperationInput, @Res({ passthrough: true }) reply: FastifyReply) {
    requireTokenMember(op, 'writing a call note');
    const { resource } = await invoke(createCallNote, op, { ...pick(input.body, CALL_NOTE) });
    void reply.status(201);
    return toLegacy(resource);
  }

  @LegacyOperation('legacyDeleteCallnotesById')
  async deleteCallNote(@Op() op: Op, @Input() input: OperationInput<{ _id: string }>, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archiveCallNote(op, input.path._id);
    void reply.status(204);
  }

  @LegacyOperation('legacyDeleteCallnotes')
  async deleteCallNoteByBody(@Op() op: Op, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archiveCallNote(op, bodyAliasId(request.body));
    void reply.status(204);
  }

  private async archiveCallNote(op: Op, id: string): Promise<void> {
    const current = await currentResource(op, getCallNote, id, 'call note');
    await invoke(archiveCallNote, op, { id: current.id });
  }
}
