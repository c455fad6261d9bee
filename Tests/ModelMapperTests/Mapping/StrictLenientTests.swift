import Foundation
import Testing

@testable import ModelMapper

struct Order: Mappable {
    var id = 0
    var items: [LineItem] = []
    var customer = Customer()
}

struct LineItem: Mappable {
    var sku = ""
    var price = 0.0
    var quantity: Int8 = 1
}

struct Customer: Mappable {
    var name = ""
    var vip = false
}

struct Conversions: Mappable {
    var int = 0
    var double = 0.0
    var string = ""
    var bool = false
    var decimal = Decimal(0)
    var uint8: UInt8 = 0
}

@Suite struct StrictLenientTests {
    static let bad = """
        {"id": 7, "customer": {"name": "Ann", "vip": "maybe"},
         "items": [{"sku": "a", "price": 1}, {"sku": "b", "price": 2}, {"sku": "c", "price": 3},
                   {"sku": "d", "price": "abc"}, {"sku": "e", "quantity": 300}]}
        """

    @Test func lenientSkipsWhatDoesNotFitAndReportsIt() throws {
        let (order, issues) = try ModelMapper.shared.decodeReportingIssues(Order.self, from: Data(Self.bad.utf8))
        #expect(order.id == 7)
        #expect(order.items.map(\.sku) == ["a", "b", "c", "d", "e"])
        #expect(order.items[3].price == 0)  // "abc": default kept
        #expect(order.items[4].quantity == 1)  // 300 does not fit Int8: default kept
        #expect(order.customer.vip == false)
        #expect(Set(issues.map(\.pathString)) == ["$.customer.vip", "$.items[3].price", "$.items[4].quantity"])
    }

    @Test func strictThrowsWithTheExactPath() {
        let strict = ModelMapper(options: MappingOptions(mode: .strict))
        let input = Self.bad.replacingOccurrences(of: #""vip": "maybe""#, with: #""vip": true"#)
        #expect {
            _ = try strict.decode(Order.self, from: input)
        } throws: { error in
            guard let error = error as? MappingError else { return false }
            return error.pathString == "$.items[3].price"
                && error.kind == .typeMismatch(expected: "Double", found: "a string")
                && error.description == "$.items[3].price: expected Double, found a string"
        }
        #expect {
            _ = try strict.decode(Order.self, from: Self.bad)
        } throws: { error in
            (error as? MappingError)?.pathString == "$.customer.vip"
        }
    }

    @Test func overflowAndFractionsAreErrorsNeverTraps() {
        let strict = ModelMapper(options: MappingOptions(mode: .strict))
        let cases: [(String, MappingError.Kind)] = [
            (#"{"int": 1.5}"#, .fractionalNumber(expected: "Int", found: "1.5")),
            (#"{"int": 9223372036854775808}"#, .numberOverflow(expected: "Int", found: "9223372036854775808")),
            (#"{"int": 1e300}"#, .numberOverflow(expected: "Int", found: "1e300")),
            (#"{"uint8": -1}"#, .numberOverflow(expected: "UInt8", found: "-1")),
            (#"{"uint8": 256}"#, .numberOverflow(expected: "UInt8", found: "256")),
            (#"{"double": 1e400}"#, .numberOverflow(expected: "Double", found: "1e400")),
        ]
        for (json, kind) in cases {
            #expect(throws: Never.self) { _ = try ModelMapper.shared.decode(Conversions.self, from: json) }
            #expect {
                _ = try strict.decode(Conversions.self, from: json)
            } throws: { error in
                (error as? MappingError)?.kind == kind
            }
        }
        // Whole numbers in other spellings are integers in both modes.
        #expect((try? strict.decode(Conversions.self, from: #"{"int": 1.0e3}"#))?.int == 1000)
    }

    @Test func lenientConvertsBetweenJSONTypes() throws {
        let json = #"{"int": "42", "double": "2.5", "string": 17.5, "bool": "yes", "decimal": "1.10", "uint8": true}"#
        let model = try ModelMapper.shared.decode(Conversions.self, from: json)
        #expect(model.int == 42)
        #expect(model.double == 2.5)
        #expect(model.string == "17.5")
        #expect(model.bool == true)
        #expect(model.decimal == Decimal(string: "1.10"))
        #expect(model.uint8 == 1)
        for (text, expected) in [("\"no\"", false), ("\"TRUE\"", true), ("0", false), ("1", true), ("\"false\"", false)] {
            #expect(try ModelMapper.shared.decode(Conversions.self, from: #"{"bool": \#(text)}"#).bool == expected)
        }
        // Any non-zero number is true, as in YYModel, KakaJSON and HandyJSON (issue 11).
        #expect(try ModelMapper.shared.decode(Conversions.self, from: #"{"bool": 2}"#).bool == true)
        // Strict mode converts nothing.
        #expect(throws: MappingError.self) {
            _ = try ModelMapper(options: MappingOptions(mode: .strict)).decode(Conversions.self, from: #"{"int": "42"}"#)
        }
        // Unless asked to.
        let converting = ModelMapper(options: MappingOptions(mode: .strict, convertsTypes: true))
        #expect(try converting.decode(Conversions.self, from: #"{"int": "42"}"#).int == 42)
    }

    @Test func requiredKeysInStrictMode() throws {
        let mapper = ModelMapper(options: MappingOptions(mode: .strict))
        mapper.configure(Customer.self) { $0.requiredProperties = ["name"] }
        #expect {
            _ = try mapper.decode(Order.self, from: #"{"customer": {"vip": true}}"#)
        } throws: { error in
            guard let error = error as? MappingError else { return false }
            return error.kind == .keyNotFound("name") && error.pathString == "$.customer"
        }
        #expect(try mapper.decode(Order.self, from: #"{"customer": {"name": "x"}}"#).customer.name == "x")
    }

    @Test func malformedJSONIsOneTypedError() {
        #expect {
            _ = try ModelMapper.shared.decode(Order.self, from: #"{"id": 1,"#)
        } throws: { error in
            guard let error = error as? MappingError, case .malformedJSON(let read) = error.kind else { return false }
            return read.reason == .unexpectedEnd
        }
        #expect(throws: MappingError.self) { _ = try ModelMapper.shared.decode(Order.self, from: "[1, 2]") }
    }
}
