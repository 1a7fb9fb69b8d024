/** The bench's workflow bundle: the product's workflows plus the two baseline designs. */
export { delegate, release } from '../../workflows/bundles/showcase.js';
export { blockingActivity } from './blocking-activity.js';
export { timerPoll } from './timer-poll.js';
