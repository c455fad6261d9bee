import Foundation
import Testing

@testable import ModelMapper

struct Flags: Mappable {
    var flag = false
    var optionalFlag: Bool?
    var ratio = 0.5
    var single: Float = 0.5
}

struct Links: Mappable {
    var link: URL?
    var required = URL(fileURLWithPath: "/")
}

struct Geometry: Mappable {
    var width: CGFloat = 0
    var offsets: [CGFloat] = []
}

struct Stamped: Mappable {
    var at = Date(timeIntervalSince1970: 0)
}

@Suite("issue 11: conversions users expect from a lenient mapper")
struct LenientConversionTests {
    @Test(arguments: ["100", "-1", "0.666", "0", "-0", "0.0", "1e3", "0e10", "2", "1E-400"])
    func boolFromAnyNumberIsNonZero(_ number: String) throws {
        // The oracle: the number's value compared with zero (1E-400 is not zero, but underflows a Double).
        let oracle = number == "1E-400" ? true : (try #require(Double(number)) != 0)
        let model = try ModelMapper().decode(Flags.self, from: #"{"flag": \#(number), "optionalFlag": \#(number)}"#)
        #expect(model.flag == oracle && model.optionalFlag == oracle)
        let quoted = try ModelMapper().decode(Flags.self, from: #"{"flag": "\#(number)"}"#)
        #expect(quoted.flag == oracle)
    }

    @Test func boolWordsAndNonsense() throws {
        for (text, value) in [("YES", true), ("true", true), ("no", false), ("False", false)] {
            #expect(try ModelMapper().decode(Flags.self, from: #"{"flag": "\#(text)"}"#).flag == value)
        }
        let (model, issues) = try ModelMapper().decodeReportingIssues(Flags.self, from: Data(#"{"flag": "maybe"}"#.utf8))
        #expect(!model.flag)
        #expect(issues.map(\.description) == [#"$.flag: expected Bool, found the string "maybe""#])
        #expect {
            try ModelMapper(options: MappingOptions(mode: .strict)).decode(Flags.self, from: #"{"flag": 2}"#)
        } throws: { error in
            (error as? MappingError)?.description == "$.flag: expected Bool, found the number 2"
        }
    }

    @Test func floatingPointFromBooleans() throws {
        let model = try ModelMapper().decode(Flags.self, from: #"{"ratio": true, "single": false}"#)
        #expect(model.ratio == 1 && model.single == 0)
        let other = try ModelMapper().decode(Flags.self, from: #"{"ratio": false, "single": true}"#)
        #expect(other.ratio == 0 && other.single == 1)
        #expect {
            try ModelMapper(options: MappingOptions(mode: .strict)).decode(Flags.self, from: #"{"ratio": true}"#)
        } throws: { error in
            (error as? MappingError)?.description == "$.ratio: expected Double, found a Boolean"
        }
    }

    @Test(arguments: ["", " ", "   ", "\t\n"])
    func blankStringIsNoURL(_ blank: String) throws {
        let escaped = blank.replacingOccurrences(of: "\t", with: "\\t").replacingOccurrences(of: "\n", with: "\\n")
        let json = #"{"link": "\#(escaped)", "required": "\#(escaped)"}"#
        let (model, issues) = try ModelMapper().decodeReportingIssues(Links.self, from: Data(json.utf8))
        #expect(model.link == nil)
        #expect(model.required == URL(fileURLWithPath: "/"), "a non-optional URL keeps its default")
        #expect(issues.map(\.description) == [#"$.required: expected a URL, found the string "\#(blank)""#])
        let present = try ModelMapper().decode(Links.self, from: #"{"link": "https://example.com/a b"}"#)
        #expect(present.link == URL(string: "https://example.com/a b"))
    }

    @Test func cgFloatMapsBothWays() throws {
        let model = try ModelMapper(options: MappingOptions(mode: .strict)).decode(
            Geometry.self, from: #"{"width": 12.5, "offsets": [1, 2.25]}"#)
        #expect(model.width == CGFloat(12.5) && model.offsets == [CGFloat(1), CGFloat(2.25)])
        #expect(try jsonObject(ModelMapper().encode(model)) == ["width": 12.5, "offsets": [1, 2.25]] as NSDictionary)
        #expect(try ModelMapper().unmappedProperties(of: Geometry.self).isEmpty)
        #expect {
            try ModelMapper(options: MappingOptions(mode: .strict)).decode(Geometry.self, from: #"{"width": "wide"}"#)
        } throws: { error in
            (error as? MappingError)?.description == "$.width: expected CGFloat, found a string"
        }
    }

    /// The forms YYModel's `YYNSDateFromString` reads, each with the `DateFormatter` format it
    /// uses (en_US_POSIX; UTC where the text has no zone) as the oracle.
    @Test(arguments: [
        ("2014-01-20", "yyyy-MM-dd"),
        ("2014-01-20 12:24:48", "yyyy-MM-dd HH:mm:ss"),
        ("2014-01-20T12:24:48", "yyyy-MM-dd'T'HH:mm:ss"),
        ("2014-01-20 12:24:48.000", "yyyy-MM-dd HH:mm:ss.SSS"),
        ("2014-01-20T12:24:48.250", "yyyy-MM-dd'T'HH:mm:ss.SSS"),
        ("2014-01-20T12:24:48Z", "yyyy-MM-dd'T'HH:mm:ssZ"),
        ("2014-01-20T12:24:48+0800", "yyyy-MM-dd'T'HH:mm:ssZ"),
        ("2014-01-20T12:24:48+12:00", "yyyy-MM-dd'T'HH:mm:ssZ"),
        ("2014-01-20T12:24:48.000Z", "yyyy-MM-dd'T'HH:mm:ss.SSSZ"),
        ("2014-01-20T12:24:48.000+0800", "yyyy-MM-dd'T'HH:mm:ss.SSSZ"),
        ("2014-01-20T12:24:48.500+12:00", "yyyy-MM-dd'T'HH:mm:ss.SSSZ"),
        ("Fri Sep 04 00:12:21 +0800 2015", "EEE MMM dd HH:mm:ss Z yyyy"),
        ("Tue Sep 30 17:06:25 -0600 2014", "EEE MMM dd HH:mm:ss Z yyyy"),
        ("Fri Sep 04 00:12:21.125 +0800 2015", "EEE MMM dd HH:mm:ss.SSS Z yyyy"),
    ])
    func yyModelDateFormats(_ text: String, _ format: String) throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = format
        let oracle = try #require(formatter.date(from: text))
        let model = try ModelMapper(options: MappingOptions(mode: .strict)).decode(Stamped.self, from: #"{"at": "\#(text)"}"#)
        #expect(abs(model.at.timeIntervalSince(oracle)) < 1e-6, "\(text): \(model.at) vs \(oracle)")
    }

    @Test(arguments: [
        "Fri Sep 04 24:12:21 +0800 2015", "Fri Sep 31 00:12:21 +0800 2015", "Fri Sep 04 00:12:21 +0800", "Fri Foo 04 00:12:21 +0800 2015",
    ])
    func malformedTwitterDatesAreNotDates(_ text: String) throws {
        #expect(DateText.parse(text) == nil)
    }
}
