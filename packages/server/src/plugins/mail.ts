import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import nodemailer, { type Transporter } from 'nodemailer';
import type { LocaleCode } from '@poruch/core';
import type { Env } from '../env.js';
import { renderMail, type TemplateName, type TemplateParams } from '../mail/templates.js';

export interface Mailer {
  /** Renders a template in the locale and sends it. Returns the Message-ID. */
  send<N extends TemplateName>(
    to: string,
    template: N,
    locale: LocaleCode,
    params: TemplateParams<N>,
  ): Promise<string>;
  close(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

/**
 * nodemailer over SMTP when SMTP_URL is set; otherwise each mail becomes an .eml file in
 * DATA_DIR/mail and its path is logged, so development needs no mail server.
 */
export function createMailer(env: Env, log: FastifyInstance['log']): Mailer {
  const mailDir = path.join(env.DATA_DIR, 'mail');
  const transport: Transporter = env.SMTP_URL
    ? nodemailer.createTransport(env.SMTP_URL)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  return {
    async send(to, template, locale, params) {
      const mail = renderMail(template, locale, params);
      const info = await transport.sendMail({ from: env.MAIL_FROM, to, ...mail });
      if (!env.SMTP_URL) {
        await fs.mkdir(mailDir, { recursive: true });
        const file = path.join(
          mailDir,
          `${Date.now()}-${template}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`,
        );
        await fs.writeFile(file, (info as unknown as { message: Buffer }).message);
        log.info({ file, template }, 'mail written to file');
      } else {
        log.info({ template, messageId: info.messageId }, 'mail sent');
      }
      return info.messageId;
    },
    close: () => transport.close(),
  };
}

export const mailPlugin = fp(async (app: FastifyInstance, { env }: { env: Env }) => {
  const mailer = createMailer(env, app.log);
  app.decorate('mailer', mailer);
  app.addHook('onClose', async () => mailer.close());
});
