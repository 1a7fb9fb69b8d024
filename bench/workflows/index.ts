/** The bench's workflow bundle: the product's workflows plus the baseline designs. */
export { delegate, release } from '../../workflows/bundles/showcase.js';
export { blockingActivity } from './blocking-activity.js';
export { emptyWorkflow } from './empty-workflow.js';
export { timerPoll } from './timer-poll.js';
