export { API_VERSION, PaylineError, createClient } from './client.js';
export { signWebhook, verifyWebhook, WebhookError } from './webhook.js';
