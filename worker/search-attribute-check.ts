/**
 * A worker refuses to start in a namespace that lacks the search attributes our workflows set:
 * there, every release and delegation would fail at its start ("no mapping defined for search
 * attribute"), far from the operator who could fix it in one command.
 */
import {
  checkSearchAttributes,
  requiredSearchAttributes,
  setupCommand,
  type HasOperatorService,
} from '../platform/search-attributes-setup.js';
import { grpcCode, GrpcStatus } from '../platform/grpc-status.js';

/** Thrown by {@link requireSearchAttributes}; the message names what is missing and the command that fixes it. */
export class SearchAttributesMissingError extends Error {
  override readonly name = 'SearchAttributesMissingError';
  constructor(
    readonly namespace: string,
    readonly missing: string[],
    readonly wrongType: string[],
  ) {
    const fix = setupCommand(namespace);
    super(
      missing.length
        ? `Namespace ${namespace} lacks the search attribute${missing.length > 1 ? 's' : ''} ${missing.join(', ')} that a2a-temporal's workflows set, so every release and delegation would fail to start: register ${missing.length > 1 ? 'them' : 'it'} with \`${fix}\`, then start the worker again.`
        : `Namespace ${namespace} has search attributes of the wrong type (${wrongType.join(', ')}), so every release and delegation would fail to start: remove them with \`temporal operator search-attribute remove --namespace ${namespace} --name <name>\` and run \`${fix}\`.`,
    );
  }
}

/**
 * @returns a warning when the server does not let these credentials list search attributes (the
 * check is then skipped); undefined when all are there.
 * @throws SearchAttributesMissingError when some are missing or of another type; the server's
 *   error for anything else (a missing namespace, no connection).
 */
export async function requireSearchAttributes(
  connection: HasOperatorService,
  namespace: string,
): Promise<string | undefined> {
  let check;
  try {
    check = await checkSearchAttributes(connection, namespace);
  } catch (err) {
    const code = grpcCode(err);
    if (code === GrpcStatus.PERMISSION_DENIED || code === GrpcStatus.UNIMPLEMENTED) {
      return `These credentials may not list the search attributes of namespace ${namespace}, so the worker could not check them; make sure it has ${requiredSearchAttributes()}.`;
    }
    throw err;
  }
  if (check.missing.length || check.wrongType.length) {
    throw new SearchAttributesMissingError(namespace, check.missing, check.wrongType);
  }
  return undefined;
}
