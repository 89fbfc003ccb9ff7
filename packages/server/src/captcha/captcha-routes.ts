import {
  CaptchaChallengeSchema,
  VerifyCaptchaRequestSchema,
  VerifyCaptchaResponseSchema,
} from '@ratelens/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CaptchaService } from './captcha-service.ts';

export const captchaRoutes: FastifyPluginAsyncZod<{
  captcha: CaptchaService;
  rateLimitPerMinute: number;
}> = async (app, { captcha, rateLimitPerMinute }) => {
  const tags = ['Bot check'];
  const limited = { rateLimit: { max: rateLimitPerMinute * 4, timeWindow: '1 minute' } };

  app.get('/Captcha/challenge', {
    config: limited,
    schema: {
      tags,
      summary: 'A new ALTCHA proof-of-work challenge',
      response: { 200: CaptchaChallengeSchema },
    },
    handler: async (_request, reply) => {
      void reply.header('cache-control', 'no-store');
      return captcha.challenge();
    },
  });

  app.post('/Captcha/VerifyRecaptcha', {
    config: limited,
    schema: {
      tags,
      summary: 'Check a solved challenge without spending it',
      body: VerifyCaptchaRequestSchema,
      response: { 200: VerifyCaptchaResponseSchema },
    },
    handler: async (request) => ({ success: await captcha.check(request.body.recaptchaToken) }),
  });
};
