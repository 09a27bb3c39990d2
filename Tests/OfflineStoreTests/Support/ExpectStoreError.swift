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
    do {
        let result = try body()
        Issue.record(Comment(rawValue: "expected \(code), got a result: \(result)" + note(comment)), sourceLocation: sourceLocation)
    } catch let error as OfflineStoreError {
        if error.code == code { return error }
        Issue.record(Comment(rawValue: "expected \(code), got \(error)" + note(comment)), sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record(Comment(rawValue: "expected \(code), got \(type(of: error)): \(error)" + note(comment)), sourceLocation: sourceLocation)
    }
    return nil
}

/// ``expectStoreError(_:_:sourceLocation:_:)`` for a call that awaits.
@discardableResult
func expectStoreError<R>(_ code: OfflineStoreError.Code, _ comment: Comment? = nil,
                         sourceLocation: SourceLocation = #_sourceLocation,
                         _ body: () async throws -> R) async -> OfflineStoreError? {
    do {
        let result = try await body()
        Issue.record(Comment(rawValue: "expected \(code), got a result: \(result)" + note(comment)), sourceLocation: sourceLocation)
    } catch let error as OfflineStoreError {
        if error.code == code { return error }
        Issue.record(Comment(rawValue: "expected \(code), got \(error)" + note(comment)), sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record(Comment(rawValue: "expected \(code), got \(type(of: error)): \(error)" + note(comment)), sourceLocation: sourceLocation)
    }
    return nil
}

private func note(_ comment: Comment?) -> String {
    comment.map { " (\($0))" } ?? ""
}
