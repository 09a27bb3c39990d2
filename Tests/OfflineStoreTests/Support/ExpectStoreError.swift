import OfflineStore
import Testing

/// Expects `body` to throw an ``OfflineStoreError`` with `code`, records an issue otherwise
/// (no error, another type, another code), and returns the error for further checks.
///
/// ```swift
/// let error = expectStoreError(.notFound) { try todos.replace("missing", with: [:]) }
/// #expect(error?.dataFate == .notStored)
/// ```
///
/// The one way a test checks for an error of ours: a check that accepts any error, or any
/// code, passes when the call fails for another reason (ArchitectureTests+ErrorChecks).
@discardableResult
func expectStoreError<R>(_ code: OfflineStoreError.Code, _ comment: Comment? = nil,
                         sourceLocation: SourceLocation = #_sourceLocation,
                         _ body: () throws -> R) -> OfflineStoreError? {
    checked(Result { try body() }, code, comment, sourceLocation)
}

/// ``expectStoreError(_:_:sourceLocation:_:)`` for a call that awaits.
@discardableResult
func expectStoreError<R>(_ code: OfflineStoreError.Code, _ comment: Comment? = nil,
                         sourceLocation: SourceLocation = #_sourceLocation,
                         _ body: () async throws -> R) async -> OfflineStoreError? {
    let outcome: Result<R, any Error>
    do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
    return checked(outcome, code, comment, sourceLocation)
}

/// Records an issue unless `outcome` is an ``OfflineStoreError`` of `code`; returns the store
/// error it holds, if any (of any code, so that the caller can look further).
private func checked<R>(_ outcome: Result<R, any Error>, _ code: OfflineStoreError.Code, _ comment: Comment?,
                        _ sourceLocation: SourceLocation) -> OfflineStoreError? {
    switch outcome {
    case .success(let result):
        Issue.record(Comment(rawValue: "expected \(code), got a result: \(result)" + note(comment)), sourceLocation: sourceLocation)
        return nil
    case .failure(let error as OfflineStoreError):
        if error.code != code {
            Issue.record(Comment(rawValue: "expected \(code), got \(error)" + note(comment)), sourceLocation: sourceLocation)
        }
        return error
    case .failure(let error):
        Issue.record(Comment(rawValue: "expected \(code), got \(type(of: error)): \(error)" + note(comment)), sourceLocation: sourceLocation)
        return nil
    }
}

private func note(_ comment: Comment?) -> String {
    comment.map { " (\($0))" } ?? ""
}
