// The worker bundles this file: every workflow type the task queue serves is exported here.
export { caseWorkflow } from './case-workflow.js';
export { reviewWorkflow } from './review-workflow.js';
