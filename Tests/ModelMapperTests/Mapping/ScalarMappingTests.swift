import Foundation
import Testing

@testable import ModelMapper

struct AllScalars: Mappable, Equatable {
    var int = 0
    var int8: Int8 = 0
    var int16: Int16 = 0
    var int32: Int32 = 0
    var int64: Int64 = 0
    var uint: UInt = 0
    var uint8: UInt8 = 0
    var uint16: UInt16 = 0
    var uint32: UInt32 = 0
    var uint64: UInt64 = 0
    var double = 0.0
    var float: Float = 0
    var bool = false
    var string = ""
    var decimal = Decimal(0)
    var url = URL(fileURLWithPath: "/")
    var uuid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    var data = Data()
    var date = Date(timeIntervalSince1970: 0)
    let constant: String = "default"
}

final class AllScalarsClass: Mappable {
    var int = 0
    var int8: Int8 = 0
    var int16: Int16 = 0
    var int32: Int32 = 0
    var int64: Int64 = 0
    var uint: UInt = 0
    var uint8: UInt8 = 0
    var uint16: UInt16 = 0
    var uint32: UInt32 = 0
    var uint64: UInt64 = 0
    var double = 0.0
    var float: Float = 0
    var bool = false
    var string = ""
    var decimal = Decimal(0)
    var url: URL?
    var uuid: UUID?
    var data = Data()
    var date = Date(timeIntervalSince1970: 0)
    let constant: Int = 1
    required init() {}
}

/// Every scalar type, in a struct and in a class, both directions. The oracle for encoding
/// is JSONSerialization reading our output; for decoding, the values we put in.
@Suite struct ScalarMappingTests {
    let mapper = ModelMapper.shared

    static let json = """
        {"int": -42, "int8": -128, "int16": 32767, "int32": -2147483648, "int64": 9223372036854775807,
         "uint": 42, "uint8": 255, "uint16": 65535, "uint32": 4294967295, "uint64": 18446744073709551615,
         "double": 3.141592653589793, "float": 0.1, "bool": true, "string": "h\\u00e9llo \\ud83d\\ude00",
         "decimal": 12345678901234567890.123456789, "url": "https://example.com/a?b=c",
         "uuid": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "data": "AAEC/w==",
         "date": "2024-11-08T21:15:03Z", "constant": "from json"}
        """

    @Test func decodesEveryScalarInAStruct() throws {
        let model = try mapper.decode(AllScalars.self, from: Self.json)
        #expect(model.int == -42)
        #expect(model.int8 == Int8.min)
        #expect(model.int16 == Int16.max)
        #expect(model.int32 == Int32.min)
        #expect(model.int64 == Int64.max)
        #expect(model.uint == 42)
        #expect(model.uint8 == UInt8.max)
        #expect(model.uint16 == UInt16.max)
        #expect(model.uint32 == UInt32.max)
        #expect(model.uint64 == UInt64.max)
        #expect(model.double == Double.pi)
        #expect(model.float == Float("0.1"))
        #expect(model.bool == true)
        #expect(model.string == "héllo 😀")
        #expect(model.decimal == Decimal(string: "12345678901234567890.123456789"))
        #expect(model.url == URL(string: "https://example.com/a?b=c"))
        #expect(model.uuid == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(model.data == Data([0, 1, 2, 255]))
        #expect(model.date == ISO8601DateFormatter().date(from: "2024-11-08T21:15:03Z"))
        #expect(model.constant == "from json")  // a let property, written through PropertyInfo
    }

    @Test func encodesEveryScalarInAStruct() throws {
        let model = try mapper.decode(AllScalars.self, from: Self.json)
        let data = try mapper.encode(model)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object.count == 20)
        #expect((object["int"] as? NSNumber)?.intValue == model.int)
        #expect((object["int64"] as? NSNumber)?.int64Value == model.int64)
        #expect((object["uint64"] as? NSNumber)?.uint64Value == model.uint64)
        #expect((object["double"] as? NSNumber)?.doubleValue == model.double)
        #expect(object["bool"] as? Bool == true)
        #expect(object["string"] as? String == model.string)
        #expect(object["url"] as? String == model.url.absoluteString)
        #expect(object["uuid"] as? String == model.uuid.uuidString)
        #expect(object["data"] as? String == model.data.base64EncodedString())
        #expect(object["date"] as? String == "2024-11-08T21:15:03Z")
        #expect(object["constant"] as? String == "from json")
        #expect(try mapper.decode(AllScalars.self, from: data) == model)
    }

    @Test func decodesAndEncodesEveryScalarInAClass() throws {
        let model = try mapper.decode(AllScalarsClass.self, from: Self.json)
        #expect(model.int == -42)
        #expect(model.int8 == Int8.min)
        #expect(model.int16 == Int16.max && model.int32 == Int32.min && model.int64 == Int64.max)
        #expect(model.uint == 42 && model.uint8 == UInt8.max && model.uint16 == UInt16.max && model.uint32 == UInt32.max)
        #expect(model.uint64 == UInt64.max)
        #expect(model.double == Double.pi)
        #expect(model.float == Float("0.1"))
        #expect(model.bool)
        #expect(model.string == "héllo 😀")
        #expect(model.url == URL(string: "https://example.com/a?b=c"))
        #expect(model.uuid == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(model.data == Data([0, 1, 2, 255]))
        #expect(model.constant == 1)  // "from json" is not an Int: kept in lenient mode
        let back = try mapper.decode(AllScalarsClass.self, from: try mapper.encode(model))
        #expect(back.int == model.int && back.uint64 == model.uint64 && back.string == model.string)
        #expect(back.int16 == model.int16 && back.int32 == model.int32 && back.int64 == model.int64)
        #expect(back.uint == model.uint && back.uint8 == model.uint8 && back.uint16 == model.uint16 && back.uint32 == model.uint32)
        #expect(back.url == model.url && back.uuid == model.uuid && back.data == model.data && back.bool == model.bool)
        #expect(back.date == model.date && back.decimal == model.decimal && back.float == model.float)
    }
}
