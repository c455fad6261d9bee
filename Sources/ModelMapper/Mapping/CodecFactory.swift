import Foundation
import TypeInfo

/// Marks the standard containers so the factory can tell them apart; element types come
/// from `ClassInfo.genericArguments`.
protocol ArrayShape {}
extension Array: ArrayShape {}
protocol SetShape {}
extension Set: SetShape {}
protocol DictionaryShape {}
extension Dictionary: DictionaryShape {}

/// Builds the codec for a property type, once per plan: scalars from a table, containers,
/// optionals and raw-value enums by opening their generic arguments, models lazily.
struct CodecFactory {
    let dateDecoding: DateDecodingStrategy
    let dateEncoding: DateEncodingStrategy
    /// Enum codecs being built, so a recursive enum (`indirect case node(Tree, Tree)`,
    /// `case list([Tree])`) refers to itself instead of recursing forever.
    private let enumsInProgress = EnumCodecsInProgress()

    init(dateDecoding: DateDecodingStrategy, dateEncoding: DateEncodingStrategy) {
        self.dateDecoding = dateDecoding
        self.dateEncoding = dateEncoding
    }

    /// The codec for `V`, or `nil` when the type has no JSON mapping (closures, weak
    /// references, enums without raw values, ...).
    func codec<V>(for type: V.Type) -> ValueCodec<V>? {
        make(type) as? ValueCodec<V>
    }

    private func make<V>(_ type: V.Type) -> AnyObject? {
        if let scalar = scalarCodec(type) { return scalar }
        if type == Date.self { return DateCodec(decoding: dateDecoding, encoding: dateEncoding) }
        // Models first: a model that is also RawRepresentable is still mapped as a model.
        if let model = type as? any MappableModel.Type { return modelCodec(model) }
        if let optional = type as? any OptionalProtocol.Type {
            let wrapped = genericArguments(of: type).first ?? optional.wrappedType
            return optionalCodec(wrapped)
        }
        if type is any ArrayShape.Type, let element = genericArguments(of: type).first {
            return arrayCodec(element)
        }
        if type is any SetShape.Type, let element = genericArguments(of: type).first,
            let hashable = element as? any Hashable.Type
        {
            return setCodec(hashable)
        }
        if type is any DictionaryShape.Type {
            let arguments = genericArguments(of: type)
            guard arguments.count == 2 else { return nil }
            return dictionaryCodec(key: arguments[0], value: arguments[1])
        }
        if let raw = type as? any RawRepresentable.Type { return rawValueCodec(raw) }
        let info = ClassInfo.of(type)
        if info.kind == .enum { return enumCodec(type, info) }
        return nil
    }

    /// An enum without raw values, in `Codable`'s shape (see `EnumPayloadCodec.swift`), when
    /// every associated value has a codec.
    private func enumCodec<E>(_ type: E.Type, _ info: ClassInfo) -> AnyObject? {
        let id = ObjectIdentifier(type)
        if let pending = enumsInProgress.codecs[id] { return pending }
        let deferred = DeferredCodec<E>()
        enumsInProgress.codecs[id] = deferred
        defer { enumsInProgress.codecs[id] = nil }
        guard let built = enumCases(info).map({ EnumPayloadCodec<E>(info: info, cases: $0) }) else { return nil }
        deferred.target = built
        return built
    }

    private func enumCases(_ info: ClassInfo) -> [EnumCaseCodec]? {
        var cases: [EnumCaseCodec] = []
        for enumCase in info.cases {
            guard let payloadType = enumCase.payloadType else {
                cases.append(EnumCaseCodec(name: enumCase.name, keys: [], elements: [], isTuple: false))
                continue
            }
            let payloadInfo = ClassInfo.of(payloadType)
            let isTuple = payloadInfo.kind == .tuple
            let types = isTuple ? payloadInfo.tupleElements.map(\.type) : [payloadType]
            let keys =
                isTuple
                ? payloadInfo.tupleElements.enumerated().map { index, element in element.label ?? "_\(index)" }
                : ["_0"]
            var elements: [ErasedCodec] = []
            for elementType in types {
                func erased<V>(_: V.Type) -> ErasedCodec? { codec(for: V.self).map(ErasedCodec.init) }
                guard let element = erased(elementType) else { return nil }
                elements.append(element)
            }
            cases.append(EnumCaseCodec(name: enumCase.name, keys: keys, elements: elements, isTuple: isTuple))
        }
        return cases
    }

    /// The seam to TypeInfo for generic arguments: `Array<Int>` -> `[Int]`.
    private func genericArguments(of type: Any.Type) -> [Any.Type] {
        ClassInfo.of(type).genericArguments
    }

    private func scalarCodec<V>(_ type: V.Type) -> AnyObject? {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(Int.self): return IntCodec()
        case ObjectIdentifier(String.self): return StringCodec()
        case ObjectIdentifier(Bool.self): return BoolCodec()
        case ObjectIdentifier(Double.self): return DoubleCodec()
        case ObjectIdentifier(Float.self): return FloatCodec()
        case ObjectIdentifier(Int8.self): return IntegerCodec<Int8>()
        case ObjectIdentifier(Int16.self): return IntegerCodec<Int16>()
        case ObjectIdentifier(Int32.self): return IntegerCodec<Int32>()
        case ObjectIdentifier(Int64.self): return Int64Codec()
        case ObjectIdentifier(UInt.self): return IntegerCodec<UInt>()
        case ObjectIdentifier(UInt8.self): return IntegerCodec<UInt8>()
        case ObjectIdentifier(UInt16.self): return IntegerCodec<UInt16>()
        case ObjectIdentifier(UInt32.self): return IntegerCodec<UInt32>()
        case ObjectIdentifier(UInt64.self): return IntegerCodec<UInt64>()
        case ObjectIdentifier(Decimal.self): return DecimalCodec()
        case ObjectIdentifier(CGFloat.self): return CGFloatCodec()
        case ObjectIdentifier(URL.self): return URLCodec()
        case ObjectIdentifier(UUID.self): return UUIDCodec()
        case ObjectIdentifier(Data.self): return DataCodec()
        case ObjectIdentifier(JSONValue.self): return JSONValueCodec()
        case ObjectIdentifier(Any.self): return AnyCodec()
        default: return nil
        }
    }

    private func modelCodec<M: MappableModel>(_ type: M.Type) -> AnyObject { ModelCodec<M>() }

    private func optionalCodec<W>(_ wrapped: W.Type) -> AnyObject? {
        if W.self == String.self { return OptionalStringCodec(StringCodec()) }
        if W.self == Int.self { return OptionalIntCodec(IntCodec()) }
        if W.self == Bool.self { return OptionalBoolCodec(BoolCodec()) }
        guard let inner = codec(for: W.self) else { return nil }
        return OptionalCodec<W>(inner)
    }

    private func arrayCodec<E>(_ element: E.Type) -> AnyObject? {
        guard let inner = codec(for: E.self) else { return nil }
        return ArrayCodec<E>(inner)
    }

    private func setCodec<E: Hashable>(_ element: E.Type) -> AnyObject? {
        guard let inner = codec(for: E.self) else { return nil }
        return SetCodec<E>(inner)
    }

    private func dictionaryCodec(key: Any.Type, value: Any.Type) -> AnyObject? {
        func withValue<Value>(_ value: Value.Type) -> AnyObject? {
            guard let inner = codec(for: Value.self) else { return nil }
            if key == String.self { return DictionaryCodec(keys: StringKeyCodec(), value: inner) }
            if key == Int.self { return DictionaryCodec(keys: IntegerKeyCodec<Int>(), value: inner) }
            if key == Int64.self { return DictionaryCodec(keys: IntegerKeyCodec<Int64>(), value: inner) }
            if key == UInt.self { return DictionaryCodec(keys: IntegerKeyCodec<UInt>(), value: inner) }
            if let enumKey = key as? any (RawRepresentable & Hashable).Type {
                func withKey<K: RawRepresentable & Hashable>(_ type: K.Type) -> AnyObject {
                    DictionaryCodec(keys: RawValueKeyCodec<K>(), value: inner)
                }
                return withKey(enumKey)
            }
            return nil
        }
        return withValue(value)
    }

    private func rawValueCodec<R: RawRepresentable>(_ type: R.Type) -> AnyObject? {
        guard let raw = codec(for: R.RawValue.self) else { return nil }
        return RawValueCodec<R>(raw)
    }
}

/// The enum codecs a factory is building (one factory builds one plan's codecs, on one thread).
final class EnumCodecsInProgress {
    var codecs: [ObjectIdentifier: AnyObject] = [:]
}
