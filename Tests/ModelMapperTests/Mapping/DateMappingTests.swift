import Foundation
import Testing

@testable import ModelMapper

struct Dated: Mappable {
    var at = Date(timeIntervalSince1970: 0)
    var seconds = Date(timeIntervalSince1970: 0)
    var millis = Date(timeIntervalSince1970: 0)
    var maybe: Date?

    static func configureMapping(_ mapping: inout MappingConfiguration) {
        mapping.date("seconds", decoding: .secondsSince1970, encoding: .secondsSince1970)
        mapping.date("millis", decoding: .millisecondsSince1970, encoding: .millisecondsSince1970)
    }
}

@Suite struct DateMappingTests {
    static func iso(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }

    /// Every form `.automatic` reads, with Foundation's reading of the same instant as oracle.
    static let automaticForms: [(String, String)] = [
        (#""2024-11-08T21:15:03Z""#, "2024-11-08T21:15:03Z"),
        (#""2024-11-08T21:15:03.250Z""#, "2024-11-08T21:15:03.250Z"),
        (#""2024-11-08T22:15:03+01:00""#, "2024-11-08T21:15:03Z"),
        (#""2024-11-08T13:15:03.5-08:00""#, "2024-11-08T21:15:03.500Z"),
        (#""2024-11-08 21:15:03""#, "2024-11-08T21:15:03Z"),
        (#""2024-11-08""#, "2024-11-08T00:00:00Z"),
        (#""Fri, 08 Nov 2024 21:15:03 GMT""#, "2024-11-08T21:15:03Z"),
        ("1731100503", "2024-11-08T21:15:03Z"),
        ("1731100503.25", "2024-11-08T21:15:03.250Z"),
        ("1731100503250", "2024-11-08T21:15:03.250Z"),
        (#""1731100503""#, "2024-11-08T21:15:03Z"),
    ]

    @Test(arguments: automaticForms)
    func automaticReadsEveryCommonForm(_ json: String, _ instant: String) throws {
        let model = try ModelMapper.shared.decode(Dated.self, from: #"{"at": \#(json), "maybe": \#(json)}"#)
        let expected = try #require(Self.iso(instant))
        #expect(abs(model.at.timeIntervalSince(expected)) < 1e-6, "\(json)")
        #expect(abs((model.maybe ?? .distantPast).timeIntervalSince(expected)) < 1e-6)
    }

    @Test func explicitStrategiesPerProperty() throws {
        let model = try ModelMapper.shared.decode(Dated.self, from: #"{"seconds": 1731100503, "millis": 1731100503250}"#)
        #expect(model.seconds == Self.iso("2024-11-08T21:15:03Z"))
        #expect(abs(model.millis.timeIntervalSince1970 - 1_731_100_503.25) < 1e-6)
        let json = try ModelMapper.shared.encodeToJSONValue(model)
        #expect(json["seconds"] == .int(1_731_100_503))
        #expect(json["millis"] == .int(1_731_100_503_250))
        #expect(json["at"] == "1970-01-01T00:00:00Z")
        #expect(json["maybe"] == .null)
    }

    @Test func notADateIsSkippedOrAnError() throws {
        #expect(try ModelMapper.shared.decode(Dated.self, from: #"{"at": "soon"}"#).at == Date(timeIntervalSince1970: 0))
        #expect {
            _ = try ModelMapper(options: MappingOptions(mode: .strict)).decode(Dated.self, from: #"{"at": "soon"}"#)
        } throws: { error in
            guard let error = error as? MappingError else { return false }
            return error.pathString == "$.at" && error.kind == .invalidValue(expected: "a date", found: "the string \"soon\"")
        }
    }

    @Test func datesWithNoJSONFormAreErrorsNotBadJSON() throws {
        var model = Dated()
        model.seconds = Date(timeIntervalSince1970: .infinity)
        #expect(throws: MappingError.self) { _ = try ModelMapper.shared.encode(model) }
        model.seconds = Date(timeIntervalSince1970: 0)
        model.millis = Date(timeIntervalSince1970: 1e300)
        #expect(throws: MappingError.self) { _ = try ModelMapper.shared.encode(model) }
        // Beyond year 9999 ISO 8601 has no text: the seconds are written as a string, still valid JSON.
        model.millis = Date(timeIntervalSince1970: 0)
        model.at = Date(timeIntervalSince1970: 1e15)
        #expect(throws: Never.self) { _ = try JSONValue(parsing: try ModelMapper.shared.encode(model)) }
    }

    @Test func mapperWideStrategies() throws {
        let mapper = ModelMapper(options: MappingOptions(dateDecoding: .iso8601, dateEncoding: .millisecondsSince1970))
        let model = try mapper.decode(Dated.self, from: #"{"at": "2024-11-08T21:15:03Z", "maybe": 1731100503}"#)
        #expect(model.at == Self.iso("2024-11-08T21:15:03Z"))
        #expect(model.maybe == nil)  // a number is not ISO 8601: skipped
        #expect(try mapper.encodeToJSONValue(model)["at"] == .int(1_731_100_503_000))
        let custom = ModelMapper(
            options: MappingOptions(
                dateDecoding: .custom { json in json.stringValue == "epoch" ? Date(timeIntervalSince1970: 0) : nil },
                dateEncoding: .custom { _ in "always" }))
        #expect(try custom.decode(Dated.self, from: #"{"at": "epoch"}"#).at == Date(timeIntervalSince1970: 0))
        #expect(try custom.encodeToJSONValue(Dated())["at"] == "always")
    }
}
