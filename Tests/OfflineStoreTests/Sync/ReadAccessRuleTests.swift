import Foundation
import Testing
@testable import OfflineStore

/// What a refresh does when a collection's pull fails (``ReadAccessRule``), as a table:
/// the error, whether the store read the collection before, its policy, the decision.
@Suite struct ReadAccessRuleTests {
    static let forbidden = OfflineStoreError(.forbidden, "no", status: 403)
    static let notFound = OfflineStoreError(.server, "gone", status: 404)

    @Test(arguments: [
        (forbidden, true, ReadAccessLossPolicy.keep, ReadAccessRule.keep),     // read before, withdrawn
        (forbidden, true, .purge, .purge),
        (notFound, true, .keep, .keep),                                       // a backend that hides records with 404
        (notFound, true, .purge, .purge),
        (forbidden, false, .keep, .refuse),                                   // never read: nothing local to act on
        (forbidden, false, .purge, .refuse),
        (notFound, false, .purge, .refuse),
        (OfflineStoreError(.unauthorized, "sign in", status: 401), true, .purge, .stopRun),   // about every collection
        (OfflineStoreError(.server, "down", status: 503), true, .purge, .stopRun),
        (OfflineStoreError(.server, "bad", status: 400), true, .purge, .stopRun),
        (OfflineStoreError(.offline, "no network"), true, .purge, .stopRun),
        (OfflineStoreError(.timeout, "slow"), true, .keep, .stopRun),
        (OfflineStoreError(.cancelled, "stopped"), true, .purge, .stopRun),
        (OfflineStoreError(.serverLostData, "empty", status: 404), true, .purge, .stopRun),   // Kinto's missing collection
    ] as [(OfflineStoreError, Bool, ReadAccessLossPolicy, ReadAccessRule)])
    func decision(error: OfflineStoreError, wasRead: Bool, policy: ReadAccessLossPolicy, expected: ReadAccessRule) {
        #expect(ReadAccessRule.decide(error, wasRead: wasRead, policy: policy) == expected)
        #expect(ReadAccessRule.isReadRefusal(error) == (expected != .stopRun))
    }

    @Test func theDefaultPolicyKeepsAndAStoredDescriptorRemembersAPurge() throws {
        #expect(CollectionDescriptor("shared").readAccessLoss == .keep)
        var purged = CollectionDescriptor("shared")
        purged.readAccessLoss = .purge
        #expect(StoredDescriptor(purged).descriptor(named: "shared").readAccessLoss == .purge)
        #expect(StoredDescriptor(CollectionDescriptor("shared")).readAccessLoss == nil)   // older stored descriptors compare equal
    }
}
