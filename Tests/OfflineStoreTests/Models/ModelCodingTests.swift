import Foundation
import OfflineStore
import Testing

extension Models {
    @Suite("Model coding")
    struct ModelCodingTests {
        @Test func everyKindOfValueRoundTripsExactly() throws {
            let item = Item.sample()
            let json = try ModelEncoder().encode(item)
            #expect(json["price"] == .double(12.34))
            #expect(json["weight"] == .double(1.0))      // JSONEncoder would write 1
            #expect(json.serialized().contains("\"weight\":1.0"))
            #expect(json["quantity"] == .int(3))
            #expect(json["priority"] == "high")
            #expect(json["size"] == .int(3))
            #expect(json["dimensions"] == ["width": 0.5, "depth": 2.0, "unit": "m"])
            #expect(json["tags"] == ["home", "é"])
            #expect(json["madeAt"] == "2027-01-15T08:00:00.123Z")
            #expect(json["note"] == nil)
            #expect(try ModelDecoder().decode(Item.self, from: json) == item)
            // Through JSON text and back, as the store keeps it.
            #expect(try ModelDecoder().decode(Item.self, from: try JSONValue(parsing: json.serialized())) == item)
        }

        @Test func decimalsStayExact() throws {
            for text in ["0.1", "12.34", "2.50", "-7", "123456789012.345", "9007199254740993", "0.000001"] {
                let decimal = try #require(Decimal(string: text))
                let json = try JSONValue(encoding: decimal)
                #expect(try json.decode(Decimal.self) == decimal, "\(text)")
                #expect(try JSONValue(parsing: json.serialized()).decode(Decimal.self) == decimal, "\(text) through text")
            }
            #expect(try JSONValue(encoding: Decimal(string: "2.50")) == .double(2.5))
            #expect(try JSONValue(encoding: Decimal(7)) == .int(7))
            // A numeric string (a REST server's decimal column) decodes too.
            #expect(try JSONValue.string("19.99").decode(Decimal.self) == Decimal(string: "19.99"))
            // Too many digits for a double: refused, never rounded.
            let long = try #require(Decimal(string: "0.12345678901234567890123"))
            #expect(throws: EncodingError.self) { try JSONValue(encoding: long) }
        }

        @Test func datesFollowTheModelsEncoding() throws {
            let reminder = Reminder(id: "r", dueDate: date(1_800_000_000.5))
            let json = try ModelEncoder(coding: Reminder.coding).encode(reminder)
            #expect(json == JSONValue.object(["id": "r", "due_date": .int(1_800_000_000_500)]))
            #expect(try ModelDecoder(coding: Reminder.coding).decode(Reminder.self, from: json) == reminder)
            // ISO 8601 by default, with or without fractional seconds on the way in.
            let plain = try JSONValue.string("2027-01-15T08:00:00Z").decode(Date.self)
            #expect(plain == date(1_800_000_000))
            #expect(try JSONValue(encoding: date(1_800_000_000)) == "2027-01-15T08:00:00.000Z")
        }

        @Test func mismatchesAreDecodingErrorsWithTheirPath() throws {
            var json = try ModelEncoder().encode(Item.sample())
            json["dimensions"] = ["width": "wide", "depth": 1, "unit": "m"]
            #expect {
                try ModelDecoder().decode(Item.self, from: json)
            } throws: { error in
                guard case DecodingError.typeMismatch(_, let context) = error else { return false }
                return context.codingPath.map(\.stringValue) == ["dimensions", "width"]
            }
            json = ["id": "x"]
            #expect(throws: DecodingError.self) { try ModelDecoder().decode(Item.self, from: json) }
            #expect(throws: EncodingError.self) { try JSONValue(encoding: Double.nan) }
        }

        @Test func jsonValuesAndOptionalsPassThrough() throws {
            struct Bag: Codable, Equatable { var extra: JSONValue; var maybe: Int?; var list: [Int?] }
            let bag = Bag(extra: ["a": [1, 2.5, .null]], maybe: nil, list: [1, nil])
            let json = try JSONValue(encoding: bag)
            #expect(json == ["extra": ["a": [1, 2.5, .null]], "list": [1, .null]])
            #expect(try json.decode(Bag.self) == bag)
        }
    }
}
