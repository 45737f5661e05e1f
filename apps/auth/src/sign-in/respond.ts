import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Logger, reportFailure, sendProblem, v1Errors } from '@workcell/http';
import { messagePage, PAGE_HEADERS } from './pages.js';

/** An HTML page of the sign-in and account routes, with their security headers. */
export function sendPage(reply: FastifyReply, status: number, html: string): void {
  void reply.status(status).headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(html);
}

/** 303 See Other: after a form post, the browser loads `location` with a GET. */
export function seeOther(reply: FastifyReply, location: string): void {
  void reply.status(303).headers(PAGE_HEADERS).header('location', location).send();
}

/**
 * Whether a refusal is answered with a page (else the v1 error document), one rule for every route of the service:
 * a page for a form post, or for a request without a JSON body whose Accept asks for HTML (a browser's navigation).
 */
export function answersWithPage(request: FastifyRequest): boolean {
  const type = String(request.headers['content-type'] ?? '').toLowerCase();
  if (/^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\b/.test(type)) return true;
  if (/^\s*application\/json\b/.test(type)) return false;
  return /\btext\/html\b/i.test(String(request.headers.accept ?? ''));
}

/**
 * A refusal, mapped to HTTP once here: the v1 error document, or (answersWithPage) a page saying what went wrong
 * with the same status (and Retry-After when the refusal ends by itself).
 */
export function sendFailure(reply: FastifyReply, request: FastifyRequest, error: unknown, logger: Logger, title = 'Something went wrong'): void {
  const problem = reportFailure(request, error, logger);
  if (!answersWithPage(request)) {
    sendProblem(reply, request, problem, v1Errors);
    return;
  }
  for (const [name, value] of Object.entries(problem.headers)) void reply.header(name, value);
  sendPage(reply, problem.status, messagePage(title, problem.status >= 500 ? 'The request could not be completed. Try again later.' : problem.detail));
}
