export { createMailer, type Mailer, type MailMessage, OutboxMailer, SmtpMailer } from './mail.js';
