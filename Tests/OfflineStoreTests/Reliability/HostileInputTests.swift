import Foundation
import GRDB
import PropertyBased
import Testing
@testable import OfflineStore

/// Hostile input from the app and from the server gets a typed error, never a crash, and
/// changes nothing (SPEC §11).
@Suite("Hostile input")
struct HostileInputTests {
    /// Strings an app might pass as ids, field paths or values.
    static let hostileString = Gen<UInt8>.value(in: 0...255).array(of: 0...24).map { String(decoding: $0, as: UTF8.self) }

    @Test func arbitraryBytesParseOrGiveAJSONError() async {
        await propertyCheck(count: 500, input: Gen<UInt8>.value(in: 0...255).array(of: 0...200)) { bytes in
            do { _ = try JSONValue(parsing: Data(bytes)) } catch { #expect(error is JSONError, "\(error)") }
        }
        #expect(throws: JSONError.self) { try JSONValue(parsing: String(repeating: "[", count: 100_000)) }
        #expect(throws: JSONError.self) { try JSONValue(parsing: Data([0x22, 0xED, 0xA0, 0x80, 0x22])) }  // a UTF-8 surrogate
        for number in ["1e999999", "-1e999999", "123456789012345678901234567890"] {
            do { _ = try JSONValue(parsing: number) } catch { #expect(error is JSONError) }
        }
    }

    @Test func hostileIDsFieldPathsAndValuesAreTypedErrorsThatChangeNothing() async throws {
        try await withTemporaryStore(collections: [CollectionDescriptor("items")]) { store in
            let items = store.collection("items")
            _ = try await items.create(["id": "keep", "n": 1])
            let before = try items.findAll()
            await propertyCheck(count: 300, input: Self.hostileString, Self.hostileString) { id, path in
                // Ids: accepted (then removed again) or refused with invalidID.
                do {
                    _ = try await items.create(["id": .string(id), "n": 2])
                    try await items.destroy(id)
                } catch let error as OfflineStoreError {
                    #expect([.invalidID, .alreadyExists].contains(error.code), "\(error)")
                }
                // Field paths and conditions: a result or invalidFieldPath, never SQL.
                for condition: Condition in [.equal(path, .string(id)), .contains(path, id), .not(.greater(path, 1)),
                                             .oneOf(path, [.string(id), .null])] {
                    do { _ = try items.findAll(where: condition, orderBy: [.ascending(path)]) } catch let error as OfflineStoreError {
                        #expect(error.code == .invalidFieldPath, "\(error)")
                    }
                }
                do { _ = try await items.patch("keep", [path: .string(id)]) ; _ = try await items.save(["id": "keep", "n": 1]) }
                catch let error as OfflineStoreError { #expect([.invalidFieldPath, .invalidJSON].contains(error.code), "\(error)") }
            }
            #expect(try items.findAll() == before)
        }
    }

    @Test(.liveServer) func hostileDurationsNeverCrash() async throws {
        for duration: Duration in [.seconds(Int64.max), .seconds(Int64.min), .zero, .seconds(-5), .nanoseconds(1)] {
            #expect(KintoBackend.milliseconds(duration) >= 0)
            let backend = try KintoServer.backend(bucket: KintoServer.uniqueName("dur"), timeout: duration, pageSize: 10_000,
                                                  lookBack: duration)
            do { _ = try await backend.pull(PullRequest(collection: "c", cursor: "1700000000000")) } catch {
                #expect(error is OfflineStoreError, "\(error)")
            }
        }
    }

    @Test func hostileServerAnswersAreTypedErrorsAndLoseNothing() async throws {
        await propertyCheck(count: 250, input: HostileResponses.response) { response in
            let backend = KintoServer.backend(server: KintoServer.fakeAddress, bucket: "b", timeout: .seconds(30), pageSize: 10_000,
                                                  transport: ConstantTransport(response: response))
            var configuration = ObjectStore.Configuration()
            configuration.writeMode = .deferred
            try await withTemporaryStore(configuration: configuration, backend: backend,
                                         collections: [CollectionDescriptor("items")]) { store in
                try store.seedSynced("items", ["id": "synced", "n": 1], version: "\"100\"")
                _ = try await store.collection("items").create(["id": "mine", "n": 2])
                for step in 0..<3 {
                    do {
                        switch step {
                        case 0: _ = try await store.flush()
                        case 1: _ = try await store.refresh()
                        default: _ = try await store.sync()
                        }
                    } catch let stop as OfflineStoreError where stop.report != nil {
                        _ = stop.code
                    } catch {
                        #expect(error is OfflineStoreError, "untyped \(error) for \(response.status) \(String(decoding: response.body.prefix(200), as: UTF8.self))")
                    }
                }
                // The local edit is never lost: still local with its data, or accepted by "the server".
                let mine = try store.collection("items").object("mine")
                #expect(mine?.local?["n"] == 2 || mine?.state == .synced,
                        "lost the local edit: \(String(describing: mine))")
                let integrity = try store.local.read("integrity") { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
                #expect(integrity == ["ok"])
            }
        }
    }
}
