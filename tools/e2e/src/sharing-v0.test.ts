import assert from 'node:assert/strict';
import { useTestEnvironment } from '@workcell/testing';
import { callV0, useV0Cell } from './support/v0.js';

/**
 * v0 team tokens keep their team-wide access (contract 5.1, docs/sharing.md): project sharing narrows v1 principals,
 * never a team token, which reads and writes every project of its team and its tasks, restricted or not.
 */

const env = useTestEnvironment();

describe('v0 and project sharing', () => {
  const cell = useV0Cell(env);

  it('a team token reads, lists and changes a project whose entries name someone else, and its tasks', async () => {
    const { prisma } = cell.database;
    const workspaceId = cell.workspaceId;
    const user = await prisma.user.create({ data: { email: `listed-${workspaceId}@cell.test`, name: 'Listed' } });
    const listed = await prisma.workspaceMember.create({ data: { workspaceId, userId: user.id } });
    const project = await prisma.project.create({ data: { workspaceId, name: 'Restricted' } });
    await prisma.projectAccessEntry.create({ data: { workspaceId, projectId: project.id, memberId: listed.id, access: 'manager' } });
    const task = await prisma.task.create({ data: { workspaceId, projectId: project.id, title: 'Inside' } });
    const token = await cell.teamToken();
    assert.equal((await callV0(cell.v0, 'GET', `/projects/${project.id}`, token)).status, 200);
    assert.equal((await callV0(cell.v0, 'GET', `/tasks/${task.id}`, token)).status, 200);
    const projects = (await callV0<{ _id: string }[]>(cell.v0, 'GET', '/projects?limit=500', token)).body;
    assert.ok(projects.some((p) => p._id === project.id));
    assert.equal((await callV0(cell.v0, 'PUT', `/tasks/${task.id}`, token, { title: 'Changed by v0' })).status, 200);
    assert.equal((await prisma.task.findUniqueOrThrow({ where: { workspaceId_id: { workspaceId, id: task.id } } })).title, 'Changed by v0');
  });
});
