/**
 * The workflow bundle's entry (`workflowsPath`): re-exports only. A workflow that is not
 * re-exported here fails at run time with "no such function is exported by the workflow bundle".
 */
export {};
