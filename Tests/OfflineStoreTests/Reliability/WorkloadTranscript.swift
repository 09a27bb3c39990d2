import Foundation

/// What one run of the `crash-writer` sync workload printed, read back.
struct WorkloadTranscript {
    typealias Edit = ObjectStoreCrashTests.Edit

    /// Edits the store acknowledged (their call returned), in order.
    var acks: [Edit] = []
    /// Edits announced before their call.
    var intents: [Edit] = []
    /// HTTP requests sent, answers received, requests that got no answer.
    var sends = 0, answers = 0, transportFailures = 0
    /// Network steps that stopped early.
    var stepErrors = 0

    /// Parses the lines; throws on a line of unknown shape or inconsistent numbering.
    init(_ lines: [String]) throws {
        for line in lines {
            let fields = line.split(separator: " ")
            switch fields.first {
            case "intent"?, "ack"?:
                guard let edit = Edit(fields.dropFirst()) else { throw HarnessError("unreadable line: \(line)") }
                if fields[0] == "ack" { acks.append(edit) } else { intents.append(edit) }
            case "wire"? where fields.count >= 3:
                switch fields[1] {
                case "send": sends += 1
                case "recv": answers += 1
                default: transportFailures += 1
                }
            case "step"? where fields.count >= 4:
                if fields[3] == "error" { stepErrors += 1 }
            default:
                throw HarnessError("unreadable line: \(line)")
            }
        }
        guard acks.map(\.n) == Array(0..<Int64(acks.count)), Array(intents.prefix(acks.count)) == acks,
              intents.count <= acks.count + 1 else {
            throw HarnessError("acks and intents do not follow each other: \(acks.count) acks, \(intents.count) intents")
        }
    }

    /// The edit announced but not acknowledged when the process died, if any.
    var inProgress: Edit? { intents.count > acks.count ? intents.last : nil }
}
