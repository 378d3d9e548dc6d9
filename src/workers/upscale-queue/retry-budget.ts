// The error code of a queue item whose retry budget is spent (lib/retry's policy): the person
// decides what happens next. Shared by the worker and the page that explains it.
export const RETRY_BUDGET_SPENT = 'retry-budget-spent';
