import ArgumentParser
import OfflineStoreCommandLine

/// A command that reports its own errors: one line on stderr, then the documented exit code.
///
/// Conformers implement ``execute()``; ``run()`` maps what it throws. ArgumentParser's
/// `ValidationError` passes through (usage and exit 64).
protocol StoreCommand: AsyncParsableCommand {
    mutating func execute() async throws
}

extension StoreCommand {
    mutating func run() async throws {
        do {
            try await execute()
        } catch let error as ExitCode {
            throw error
        } catch let error as ValidationError {
            throw error
        } catch {
            let failure = CLIError.describe(error)
            Output.error(failure.message)
            throw ExitCode(failure.exitCode)
        }
    }
}
