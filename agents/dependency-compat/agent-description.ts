import type { AgentDescription } from '../shared/agent-card.js';

export const DEPENDENCY_COMPAT_SKILL_ID = 'dependency-compatibility-analysis';

export const dependencyCompatDescription: AgentDescription = {
  name: 'Dependency Compatibility Agent',
  description:
    "Analyses a service's dependency manifest against a target Node.js version and streams a risk-rated compatibility report; " +
    'asks for the target version when the request does not name it.',
  version: '2.3.0',
  defaultInputModes: ['text/plain', 'application/json'],
  defaultOutputModes: ['text/markdown', 'application/json'],
  skills: [
    {
      id: DEPENDENCY_COMPAT_SKILL_ID,
      name: 'Dependency compatibility analysis',
      description:
        'Send a text request plus a data part with a package.json-like object; get a markdown report and JSON findings ' +
        '(name, current, suggested, risk, reason). A follow-up that references the task can ask to sort the fix suggestions by risk.',
      tags: ['dependencies', 'compatibility', 'node.js', 'upgrade'],
      examples: ['Analyse the dependencies of payment-service for Node.js 24', 'Sort the fix suggestions by risk'],
    },
  ],
};
