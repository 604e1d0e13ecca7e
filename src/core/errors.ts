/** Named errors. Workers serialise them by `name`, so the client can rebuild the same class. */

export class ToolMemError extends Error {
  override name = 'ToolMemError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A file could not be read or parsed at all. */
export class ParseError extends ToolMemError {
  override name = 'ParseError';
  constructor(
    message: string,
    readonly file: string,
    readonly row?: number,
  ) {
    super(message);
  }
}

/** Input is readable but violates a rule (schema, scale, mapping). */
export class ValidationError extends ToolMemError {
  override name = 'ValidationError';
}

/** Work was cancelled by the user. */
export class CancelledError extends ToolMemError {
  override name = 'CancelledError';
  constructor(message = 'Cancelled') {
    super(message);
  }
}

/** Storage is full (IndexedDB QuotaExceededError). */
export class StorageFullError extends ToolMemError {
  override name = 'StorageFullError';
}

export class NotFoundError extends ToolMemError {
  override name = 'NotFoundError';
}

/**
 * A hand label refused because the item it names is no longer what the labeller is looking at: its
 * queue was replaced (the dataset or a filter changed) or the item left it. Nothing was written.
 */
export class StaleLabelError extends ToolMemError {
  override name = 'StaleLabelError';
}

export const ERROR_CLASSES = {
  ToolMemError,
  ParseError,
  ValidationError,
  CancelledError,
  StorageFullError,
  NotFoundError,
  StaleLabelError,
} as const;
