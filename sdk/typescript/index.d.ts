export * from './client.js';
export * from './webhook.js';
