@testable import OfflineStore
import Testing

/// `ODataKey`: key literals in URLs, ids from JSON values and entity ids, and the id rules.
@Suite("OData keys")
struct ODataKeyTests {
    static let guid = ODataKey(entitySet: "Tasks", property: "ID", type: .guid)
    static let string = ODataKey(entitySet: "Notes", property: "Code", type: .string)
    static let int32 = ODataKey(entitySet: "Customers", property: "ID", type: .int32)
    static let int64 = ODataKey(entitySet: "Orders", property: "ID", type: .int64)
    static let aGuid = "6c2f5d0e-1111-4a2b-9c3d-00000000000a"

    @Test(arguments: [
        (guid, aGuid, "Tasks(6c2f5d0e-1111-4a2b-9c3d-00000000000a)"),
        (string, "plain", "Notes('plain')"),
        (string, "O'Neil", "Notes('O''Neil')"),
        (string, "a/b c?d#e%f&g", "Notes('a%2Fb%20c%3Fd%23e%25f%26g')"),
        (string, "é", "Notes('%C3%A9')"),
        (string, "", "Notes('')"),
        (int32, "42", "Customers(42)"),
        (int32, "-7", "Customers(-7)"),
        (int32, "2147483647", "Customers(2147483647)"),
        (int64, "9223372036854775807", "Orders(9223372036854775807)"),
    ])
    func pathsQuoteStringsAndLeaveGuidsAndIntegersBare(key: ODataKey, id: String, path: String) throws {
        #expect(try key.path(id) == path)
        let literal = String(path.drop { $0 != "(" }.dropFirst().dropLast())
        #expect(try key.id(ofLiteral: literal) == id)
        #expect(try key.id(ofEntityID: "http://127.0.0.1:8000/odata/" + path) == id)
    }

    @Test(arguments: [
        (guid, "6C2F5D0E-1111-4A2B-9C3D-00000000000A", "is not a Guid in lower case"),
        (guid, "6c2f5d0e11114a2b9c3d00000000000a", "is not a Guid in lower case"),
        (guid, "", "is not a Guid in lower case"),
        (int32, "2147483648", "is not a decimal 32-bit integer"),
        (int32, "+1", "is not a decimal 32-bit integer"),
        (int32, "007", "is not a decimal 32-bit integer"),
        (int64, "9223372036854775808", "is not a decimal 64-bit integer"),
        (int64, "1.0", "is not a decimal 64-bit integer"),
    ])
    func idsTheKeyCannotBeAreInvalidIDs(key: ODataKey, id: String, says: String) {
        let error = #expect(throws: OfflineStoreError.self) { try key.path(id) }
        #expect(error?.code == .invalidID)
        #expect(error?.message.contains(says) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("the key \(key.property) is \(key.type.rawValue)") == true)
    }

    @Test func anyStringIsAStringKey() throws {
        try Self.string.validate("")
        try Self.string.validate("'; DROP TABLE x; --")
    }

    @Test(arguments: [
        (guid, JSONValue.string("6C2F5D0E-1111-4A2B-9C3D-00000000000A"), aGuid),
        (string, JSONValue.string("O'Neil"), "O'Neil"),
        (int32, JSONValue.int(42), "42"),
        (int64, JSONValue.int(-9_223_372_036_854_775_808), "-9223372036854775808"),
    ])
    func jsonKeyValuesBecomeStoreIDs(key: ODataKey, value: JSONValue, id: String) throws {
        #expect(try key.id(of: value) == id)
    }

    @Test(arguments: [
        (guid, JSONValue.string("not-a-guid")),
        (guid, JSONValue.int(1)),
        (string, JSONValue.int(1)),
        (int32, JSONValue.int(2_147_483_648)),
        (int32, JSONValue.string("42")),
        (int64, JSONValue.double(1.5)),
        (int64, JSONValue.null),
    ])
    func jsonKeyValuesOfAnotherTypeAreBadResponses(key: ODataKey, value: JSONValue) {
        let error = #expect(throws: OfflineStoreError.self) { try key.id(of: value) }
        #expect(error?.code == .badResponse)
        #expect(error?.message.contains("not an \(key.type.rawValue) value") == true)
    }

    @Test(arguments: [
        (guid, "ID=\(aGuid)", aGuid),
        (guid, "guid'\(aGuid.uppercased())'", aGuid),
        (int64, "42L", "42"),
        (int32, "ID=42", "42"),
        (string, "'it''s'", "it's"),
        (string, "Code='x=y'", "x=y"),
    ])
    func otherLiteralSpellingsAreRead(key: ODataKey, literal: String, id: String) throws {
        #expect(try key.id(ofLiteral: literal) == id)
    }

    @Test(arguments: [
        (string, "'unterminated"), (string, "'a'b'"), (string, "bare"), (int32, "Name=42"),
        (int32, "4 2"), (guid, "'\(aGuid)'"),
    ])
    func malformedLiteralsAreBadResponses(key: ODataKey, literal: String) {
        let error = #expect(throws: OfflineStoreError.self) { try key.id(ofLiteral: literal) }
        #expect(error?.code == .badResponse)
        #expect(error?.message.contains("is not a key literal of \(key.property)") == true)
    }

    @Test(arguments: ["http://h/odata/Customers(1)", "http://h/odata/Tasks", "http://h/odata/MyTasks(\(aGuid))"])
    func entityIDsOfAnotherSetAreBadResponses(entityID: String) {
        let error = #expect(throws: OfflineStoreError.self) { try Self.guid.id(ofEntityID: entityID) }
        #expect(error?.code == .badResponse)
        #expect(error?.message.contains("does not name an entity of Tasks") == true)
    }

    @Test func relativeEntityIDsAndQueriesAreRead() throws {
        #expect(try Self.guid.id(ofEntityID: "Tasks(\(Self.aGuid))") == Self.aGuid)
        #expect(try Self.int32.id(ofEntityID: "Customers(7)?$select=ID") == "7")
    }
}
