import { dataEnvelope } from '../http/envelope.ts';
import { optionalText } from '../http/fields.ts';
import { route } from '../http/route.ts';
import { z } from '../zod.ts';

export const MESSAGE_SEVERITIES = ['info', 'warning', 'error', 'success'] as const;
export type MessageSeverity = (typeof MESSAGE_SEVERITIES)[number];

export const AppSettings = z.object({
  dashboard_message_enabled: z.boolean(),
  dashboard_message_severity: z.enum(MESSAGE_SEVERITIES),
  dashboard_message_title: z.string().nullable(),
  dashboard_message: z.string().nullable(),
});
export type AppSettings = z.infer<typeof AppSettings>;

export const getAppSettings = route({
  method: 'GET',
  path: '/api/app_settings',
  service: 'query',
  access: 'session',
  response: dataEnvelope(AppSettings),
  readModels: ['app_settings'],
  action: 'retrieve app settings',
});

export const UpdateAppSettingsBody = z.object({
  app_settings: z.object(
    {
      dashboard_message_enabled: z.boolean({ error: 'must be true or false' }).default(false),
      dashboard_message_severity: z.enum(MESSAGE_SEVERITIES, { error: 'is required' }),
      dashboard_message_title: optionalText(120),
      dashboard_message: z
        .string({ error: 'is required' })
        .trim()
        .min(1, 'is required')
        .max(1000, 'must be at most 1000 characters'),
    },
    { error: 'is required' },
  ),
});

export const updateAppSettings = route({
  method: 'PUT',
  path: '/api/app_settings',
  service: 'command',
  access: 'platform_admin',
  body: UpdateAppSettingsBody,
  response: dataEnvelope(AppSettings),
  action: 'update app settings',
});
