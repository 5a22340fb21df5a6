import { ApiKey } from './api-key.js';
import { CaptureSession } from './capture-session.js';
import { CheckResult } from './check-result.js';
import { Project } from './project.js';
import { Upload } from './upload.js';
import { Verification } from './verification.js';
import { WebhookDelivery } from './webhook-delivery.js';

export { ApiKey, CaptureSession, CheckResult, Project, Upload, Verification, WebhookDelivery };
export const ENTITIES = [Project, ApiKey, Verification, CaptureSession, Upload, CheckResult, WebhookDelivery];
export type { IApiKey } from './api-key.js';
export type { ICaptureSession } from './capture-session.js';
export type { ICheckResult } from './check-result.js';
export type { IProject } from './project.js';
export type { IUpload } from './upload.js';
export type { IVerification } from './verification.js';
export type { IWebhookDelivery } from './webhook-delivery.js';
