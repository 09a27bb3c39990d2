import Foundation
@testable import OfflineStore
import Testing

/// `ODataErrorAnswer`: the service's error objects, and other bodies named as what they are.
@Suite("OData error answers")
struct ODataErrorAnswerTests {
    static func read(_ body: String, _ type: String? = nil) -> ODataErrorAnswer {
        ODataErrorAnswer.read(Data(body.utf8), contentType: type)
    }

    @Test func bothModesErrorObjectsAreRead() {
        #expect(Self.read(#"{"error":{"code":"412","message":"The If-Match precondition failed."}}"#).summary
                == "error 412: The If-Match precondition failed.")
        let plain = Self.read(#"{"error":{"code":"BadRequest","message":"CustomerID 7 names no Customer.","target":"CustomerID"}}"#)
        guard case .error(let error) = plain else { Issue.record("\(plain)"); return }
        #expect(error.code == "BadRequest")
        #expect(error.target == "CustomerID")
        #expect(plain.summary == "error BadRequest: CustomerID 7 names no Customer. (target CustomerID)")
        #expect(Self.read(#"{"error":{"code":"InternalServerError","message":"m","target":null}}"#).summary
                == "error InternalServerError: m")
    }

    @Test func detailsAndOldStyleMessagesAreRead() {
        let answer = Self.read(#"""
            {"error":{"code":"","message":{"lang":"en-US","value":"Invalid"},
              "details":[{"code":"Required","message":"Title is required","target":"Title"},{"nothing":1}],
              "innererror":{"trace":"…"}}}
            """#)
        #expect(answer.summary == "error: Invalid; error Required: Title is required (target Title)")
    }

    @Test(arguments: [
        ("Unauthorized", "text/plain; charset=utf-8", ODataErrorAnswer.text("Unauthorized"), "plain text: Unauthorized"),
        ("<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>", "text/html",
         .html(title: "502 Bad Gateway"), "an HTML page (502 Bad Gateway)"),
        ("<!DOCTYPE html>\n<html><body>down</body></html>", nil, .html(title: nil), "an HTML page"),
        (#"{"message":"nope","status":500}"#, "application/json", .otherJSON(keys: ["message", "status"]),
         "JSON that is not an error object (keys: message, status)"),
        (#"{"error":"nope"}"#, "application/json", .otherJSON(keys: ["error"]), "JSON that is not an error object (keys: error)"),
        (" \n", nil, .empty, "an empty body"),
        ("{broken", "application/json", .text("{broken"), "plain text: {broken"),
    ] as [(String, String?, ODataErrorAnswer, String)])
    func otherBodiesAreNamedAsWhatTheyAre(body: String, type: String?, answer: ODataErrorAnswer, summary: String) {
        let read = Self.read(body, type)
        #expect(read == answer)
        #expect(read.summary == summary)
    }

    @Test func bytesThatAreNotTextAreCounted() {
        let answer = ODataErrorAnswer.read(Data([0xFF, 0xFE, 0x00, 0x41]), contentType: "application/octet-stream")
        #expect(answer == .binary(count: 4))
        #expect(answer.summary == "4 bytes that are not text")
    }
}
