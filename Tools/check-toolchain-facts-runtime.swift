// The runtime side of Tools/check-toolchain-facts: runs inside a process that has the checked
// image loaded (dlopen'ed by the host, or the executable itself under LD_PRELOAD) and prints what
// the Swift runtime says about each listed type. It compares nothing: the report step does; this
// file sees only the manglings it must look types up by, never a stated value.
//
// Input (FACTCHECK_INPUT), tab-separated lines written by the report tool's `prepare`:
//   T idx kind mangled|- generic(0|1) n|-  a type (n: its generic parameters, all at depth 0)
//   F j mangledType|-                     its j-th stated field
//   P protocolName protocolMangling       a conformance to check
// Output (FACTCHECK_OUTPUT, appended, flushed per type): `B idx`, observations, `E idx`.
// FACTCHECK_START skips the types before that index, FACTCHECK_END (exclusive) those from it on
// (the driver restarts after a crash, and retries the crashed type alone).

@_spi(Reflection) import Swift
import Glibc

private typealias DemangleFunction = @convention(c) (
    UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UInt32
) -> UnsafeMutablePointer<CChar>?
private typealias ConformsFunction = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UnsafeRawPointer?

/// The runtime's reflection record for a stored property (SwiftShims/Reflection.h).
private struct FieldReflectionMetadata {
    var name: UnsafePointer<CChar>? = nil
    var freeFunc: (@convention(c) (UnsafePointer<CChar>?) -> Void)? = nil
    var isStrong: Bool = false
    var isVar: Bool = false
}

@_silgen_name("swift_reflectionMirror_recursiveChildMetadata")
private func recursiveChildMetadata(
    _ type: Any.Type, index: Int, fieldMetadata: UnsafeMutablePointer<FieldReflectionMetadata>
) -> Any.Type

@_silgen_name("swift_reflectionMirror_recursiveCount")
private func recursiveChildCount(_ type: Any.Type) -> Int

/// The runtime's lookup by mangled name (swift_getTypeByMangledNameInContext, swiftcc); unlike
/// the stdlib's `_typeByName` it also returns noncopyable and nonescapable types.
typealias LookupFunction = @convention(thin) (
    UnsafePointer<UInt8>, UInt, UnsafeRawPointer?, UnsafeRawPointer?
) -> UnsafeRawPointer?

let getTypeByMangledNameInContext: LookupFunction = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "swift_getTypeByMangledNameInContext") else {
        fatalError("factcheck: the Swift runtime has no swift_getTypeByMangledNameInContext")
    }
    return unsafeBitCast(symbol, to: LookupFunction.self)
}()

func lookUp(_ mangled: String) -> Any.Type? {
    var name = mangled
    let metadata = name.withUTF8 { getTypeByMangledNameInContext($0.baseAddress!, UInt($0.count), nil, nil) }
    return metadata.map { unsafeBitCast($0, to: Any.Type.self) }
}

/// The runtime's lookup by name (route 1), else the type's metadata accessor (route 2).
private func resolve(_ mangled: String) -> (type: Any.Type, route: Int)? {
    if let type = lookUp(mangled) { return (type, 1) }
    if let type = accessors.type(for: mangled) { return (type, 2) }
    return nil
}

@_silgen_name("swift_EnumCaseName")
private func enumCaseName(_ value: UnsafeRawPointer, _ type: Any.Type) -> UnsafePointer<CChar>?

private struct TypeRequest {
    var index: Int
    var kind: String
    var mangled: String?
    var generic: Bool
    /// Generic parameters, all at depth 0 (nil: none, or some deeper).
    var parameters: Int? = nil
    var fields: [String?] = []
    var protocols: [(name: String, mangled: String)] = []
}

final class Output {
    let file: UnsafeMutablePointer<FILE>
    init(path: String) {
        guard let f = fopen(path, "a") else { fatalError("factcheck: cannot open \(path)") }
        file = f
    }
    func line(_ parts: String...) { line(parts) }
    func line(_ parts: [String]) {
        let text = parts.map { $0.replacingTabsAndNewlines() }.joined(separator: "\t") + "\n"
        fputs(text, file)
    }
    func flush() { fflush(file) }
}

extension String {
    fileprivate func replacingTabsAndNewlines() -> String {
        String(self.map { $0 == "\t" || $0 == "\n" ? " " : $0 })
    }
}

private let demangleFunction: DemangleFunction? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "swift_demangle") else { return nil }
    return unsafeBitCast(symbol, to: DemangleFunction.self)
}()

private let conformsFunction: ConformsFunction? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "swift_conformsToProtocol") else { return nil }
    return unsafeBitCast(symbol, to: ConformsFunction.self)
}()

private func demangle(_ mangled: String) -> String? {
    guard let function = demangleFunction else { return nil }
    let symbol = "$s" + mangled
    let count = symbol.utf8.count
    guard let text = symbol.withCString({ function($0, count, nil, nil, 0) }) else { return nil }
    defer { free(text) }
    return String(cString: text)
}

func address(_ type: Any.Type) -> UnsafeRawPointer {
    unsafeBitCast(type, to: UnsafeRawPointer.self)
}

func hex(_ pointer: UnsafeRawPointer?) -> String {
    guard let pointer else { return "0" }
    return String(UInt(bitPattern: pointer), radix: 16)
}

/// Size, alignment, stride and extra inhabitants from the value witness table at metadata[-1]
/// (ValueWitnessTable: eight witnesses, then size, stride, flags, extraInhabitantCount).
/// Nil where the metadata has no table (a block type on a platform without Objective-C).
func valueLayout(_ type: Any.Type) -> (size: Int, alignment: Int, stride: Int, extraInhabitants: UInt32)? {
    let metadata = address(type)
    guard let witnesses = metadata.load(fromByteOffset: -MemoryLayout<UnsafeRawPointer>.size, as: UnsafeRawPointer?.self) else {
        return nil
    }
    let size = witnesses.load(fromByteOffset: 64, as: Int.self)
    let stride = witnesses.load(fromByteOffset: 72, as: Int.self)
    let flags = witnesses.load(fromByteOffset: 80, as: UInt32.self)
    let extraInhabitants = witnesses.load(fromByteOffset: 84, as: UInt32.self)
    return (size, Int(flags & 0xFF) + 1, stride, extraInhabitants)
}

/// The metadata kind word; class metadata on a platform without Objective-C interop has 0 there.
private func metadataKind(_ type: Any.Type) -> UInt {
    address(type).load(as: UInt.self)
}

/// The nominal type descriptor: word 1 of struct and enum metadata; for classes (no ObjC interop:
/// kind, superclass, flags, instanceAddressPoint, instanceSize, alignMask, reserved, classSize,
/// classAddressPoint, then the description) byte offset 40.
func typeDescriptor(_ type: Any.Type) -> UnsafeRawPointer? {
    let kind = metadataKind(type)
    switch kind {
    case 0x200, 0x201, 0x202, 0x203: return address(type).load(fromByteOffset: 8, as: UnsafeRawPointer?.self)
    case 0, 0x800...: return address(type).load(fromByteOffset: 40, as: UnsafeRawPointer?.self)
    default: return nil
    }
}

/// Resolves a relative pointer at `at`; `indirectable` ones with the low bit set point at a pointer.
func relative(_ at: UnsafeRawPointer, indirectable: Bool) -> UnsafeRawPointer? {
    let offset = Int(at.load(as: Int32.self))
    if offset == 0 { return nil }
    if indirectable && offset & 1 == 1 {
        return (at + (offset & ~1)).load(as: UnsafeRawPointer?.self)
    }
    return at + offset
}

/// The module at the root of a context descriptor's parent chain (ContextDescriptor: flags, parent;
/// ModuleContextDescriptor adds a relative name pointer).
private func moduleName(of descriptor: UnsafeRawPointer) -> String? {
    var context: UnsafeRawPointer? = descriptor
    var depth = 0
    while let current = context, depth < 64 {
        let flags = current.load(as: UInt32.self)
        if flags & 0x1F == 0 {
            guard let name = relative(current + 8, indirectable: false) else { return nil }
            return String(cString: name.assumingMemoryBound(to: CChar.self))
        }
        context = relative(current + 4, indirectable: true)
        depth += 1
    }
    return nil
}

/// The protocol descriptor of a single-protocol existential (ExistentialTypeMetadata: kind, flags,
/// protocol count, an optional superclass constraint, then the protocol references).
private func protocolDescriptor(ofExistential type: Any.Type) -> UnsafeRawPointer? {
    let metadata = address(type)
    guard metadataKind(type) == 0x303 else { return nil }
    let flags = metadata.load(fromByteOffset: 8, as: UInt32.self)
    let count = metadata.load(fromByteOffset: 12, as: UInt32.self)
    guard count == 1 else { return nil }
    let hasSuperclass = flags & 0x4000_0000 != 0
    let reference = metadata.load(fromByteOffset: hasSuperclass ? 24 : 16, as: UInt.self)
    if reference & 1 == 1 { return nil }
    return UnsafeRawPointer(bitPattern: reference)
}

/// For an instance of a generic type the stated field manglings spell parameters: they are only
/// demangled, not looked up.
private func observeFields(of type: Any.Type, isClass: Bool, request: TypeRequest, output: Output) {
    let count = recursiveChildCount(type)
    output.line("fieldcount", String(count))
    var fieldTypes: [UnsafeRawPointer] = []
    let options: _EachFieldOptions = isClass ? [.classType] : []
    var index = 0
    let walked = _forEachField(of: type, options: options) { name, offset, fieldType, _ in
        var reflection = FieldReflectionMetadata()
        _ = recursiveChildMetadata(type, index: index, fieldMetadata: &reflection)
        if let free = reflection.freeFunc { free(reflection.name) }
        let layout = valueLayout(fieldType)
        output.line(
            "field", String(index), String(cString: name), String(offset),
            reflection.isVar ? "1" : "0", reflection.isStrong ? "1" : "0",
            _typeName(fieldType, qualified: true), layout.map { String($0.size) } ?? "-", layout.map { String($0.alignment) } ?? "-",
            hex(address(fieldType)))
        fieldTypes.append(address(fieldType))
        index += 1
        return true
    }
    output.line("fieldwalk", walked ? "1" : "0")
    // Stated fields are the last ones (a superclass in another image contributes no rows).
    let first = fieldTypes.count - request.fields.count
    for (j, mangled) in request.fields.enumerated() {
        guard let mangled else { continue }
        if request.generic {
            output.line("fieldmangled", String(j), "generic", "-", demangle(mangled) ?? "-")
            continue
        }
        let resolved = resolve(mangled)?.type
        let runtimeIndex = first + j
        let same = resolved.map { runtimeIndex >= 0 && runtimeIndex < fieldTypes.count && address($0) == fieldTypes[runtimeIndex] }
        output.line("fieldmangled", String(j), resolved == nil ? "unresolved" : (same! ? "same" : "different"),
                    resolved.map { _typeName($0, qualified: true) } ?? "-", demangle(mangled) ?? "-")
    }
}

/// Names each case by injecting its tag into a zeroed buffer and asking the runtime for the case
/// name; a tag the value witnesses do not read back (a payload's extra inhabitants) is skipped.
private func observeCases(of type: Any.Type, output: Output) {
    let metadata = address(type)
    let witnesses = metadata.load(fromByteOffset: -8, as: UnsafeRawPointer.self)
    typealias GetTag = @convention(thin) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32
    typealias InjectTag = @convention(thin) (UnsafeMutableRawPointer, UInt32, UnsafeRawPointer) -> Void
    // EnumValueWitnessTable: the base table (88 bytes: 8 witnesses, size, stride, flags, extra
    // inhabitants), then getEnumTag, destructiveProjectEnumData, destructiveInjectEnumTag.
    let getTag = unsafeBitCast(witnesses.load(fromByteOffset: 88, as: UnsafeRawPointer.self), to: GetTag.self)
    let injectTag = unsafeBitCast(witnesses.load(fromByteOffset: 104, as: UnsafeRawPointer.self), to: InjectTag.self)
    guard let descriptor = typeDescriptor(type) else { return }
    // EnumDescriptor: flags, parent, name, accessor, fields, then NumPayloadCasesAndPayloadSizeOffset, NumEmptyCases.
    let payloadCases = Int(descriptor.load(fromByteOffset: 20, as: UInt32.self) & 0x00FF_FFFF)
    let emptyCases = Int(descriptor.load(fromByteOffset: 24, as: UInt32.self))
    guard let layout = valueLayout(type) else { return }
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(layout.size, 1) + 16, alignment: 16)
    defer { buffer.deallocate() }
    output.line("casecount", String(payloadCases + emptyCases))
    for tag in 0..<(payloadCases + emptyCases) {
        memset(buffer, 0, max(layout.size, 1) + 16)
        injectTag(buffer, UInt32(tag), metadata)
        guard getTag(buffer, metadata) == UInt32(tag) else {
            output.line("case", String(tag), "?")
            continue
        }
        let name = enumCaseName(UnsafeRawPointer(buffer), type).map { String(cString: $0) } ?? "-"
        output.line("case", String(tag), name)
    }
    observeCasePayloads(of: type, descriptor: descriptor, output: output)
}

private func observe(_ request: TypeRequest, output: Output) {
    guard let mangled = request.mangled else { return }
    output.line("demangled", demangle(mangled) ?? "-")
    var request = request
    let resolved: (type: Any.Type, route: Int)?
    if request.generic {
        // One instance, bound to arguments that meet the type's requirements: a fact stated for
        // the generic type holds for every instance, so for this one too. Field manglings name
        // the parameters and are not looked up; conformances may be conditional and are not asked.
        guard request.kind != "protocol", let parameters = request.parameters,
              let instance = observeGenericMangling(mangled, parameters: parameters, output: output) else { return }
        request.protocols = []
        resolved = (instance, 3)
    } else {
        let lookup = request.kind == "protocol" ? mangled + "_p" : mangled
        resolved = request.kind == "protocol" ? lookUp(lookup).map { ($0, 1) } : resolve(lookup)
    }
    guard let (type, route) = resolved else {
        // No metadata to be had (a private protocol; a type without a metadata record or
        // accessor): its loaded descriptor, found by its symbol, still says which module declares
        // it; a field descriptor symbol at least shows that the compiler spells it this way.
        // A protocol descriptor's symbol is the protocol's context without its `P`.
        let symbol = request.kind == "protocol" ? "$s" + mangled.dropLast() + "Mp" : "$s" + mangled + "Mn"
        if let descriptor = accessors.address(of: symbol) {
            output.line("resolved", "descriptor")
            output.line("module", moduleName(of: descriptor) ?? "-")
        } else if accessors.address(of: "$s" + mangled + "MF") != nil {
            output.line("resolved", "symbol")
        } else {
            output.line("resolved", "0")
        }
        return
    }
    // 2: the runtime's lookup failed; the image's accessor named by this mangling gave the
    // metadata. 3: an instance of a generic type.
    output.line("resolved", String(route))
    output.line("typename", _typeName(type, qualified: true))
    let kind = metadataKind(type)
    output.line("metakind", String(kind, radix: 16))
    if request.kind == "protocol" {
        if let descriptor = protocolDescriptor(ofExistential: type) {
            output.line("module", moduleName(of: descriptor) ?? "-")
        }
        return
    }
    if let descriptor = typeDescriptor(type) {
        output.line("module", moduleName(of: descriptor) ?? "-")
    }
    if let layout = valueLayout(type) {
        output.line("layout", String(layout.size), String(layout.alignment), String(layout.stride), String(layout.extraInhabitants))
    }
    let isClass = kind == 0 || kind > 0x7FF
    if isClass {
        let metadata = address(type)
        let instanceSize = metadata.load(fromByteOffset: 24, as: UInt32.self)
        let alignMask = metadata.load(fromByteOffset: 28, as: UInt16.self)
        output.line("instance", String(instanceSize), String(Int(alignMask) + 1))
        let superclass = metadata.load(fromByteOffset: 8, as: UnsafeRawPointer?.self)
        output.line("superclass", superclass.map { _typeName(unsafeBitCast($0, to: Any.Type.self), qualified: true) } ?? "-")
    }
    if kind == 0x200 || isClass {
        observeFields(of: type, isClass: isClass, request: request, output: output)
    }
    // Imported C enums have no Swift case records to name (probing them crashes the runtime).
    if (kind == 0x201 || kind == 0x202) && !mangled.hasPrefix("So") {
        observeCases(of: type, output: output)
    }
    for conformance in request.protocols {
        guard let existential = lookUp(conformance.mangled + "_p"),
              let descriptor = protocolDescriptor(ofExistential: existential), let conforms = conformsFunction else {
            output.line("conforms", conformance.name, "?")
            continue
        }
        output.line("conforms", conformance.name, conforms(address(type), descriptor) == nil ? "0" : "1")
    }
}

private func readRequests(path: String) -> [TypeRequest] {
    guard let file = fopen(path, "r") else { fatalError("factcheck: cannot read \(path)") }
    defer { fclose(file) }
    var requests: [TypeRequest] = []
    var line: UnsafeMutablePointer<CChar>? = nil
    var capacity = 0
    while getline(&line, &capacity, file) > 0 {
        var text = String(cString: line!)
        if text.hasSuffix("\n") { text.removeLast() }
        let parts = text.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        switch parts.first {
        case "T" where parts.count >= 5:
            requests.append(TypeRequest(index: Int(parts[1]) ?? -1, kind: parts[2],
                                        mangled: parts[3] == "-" ? nil : parts[3], generic: parts[4] == "1",
                                        parameters: parts.count > 5 ? Int(parts[5]) : nil))
        case "F" where parts.count >= 3 && !requests.isEmpty:
            requests[requests.count - 1].fields.append(parts[2] == "-" ? nil : parts[2])
        case "P" where parts.count >= 3 && !requests.isEmpty:
            requests[requests.count - 1].protocols.append((parts[1], parts[2]))
        default: break
        }
    }
    free(line)
    return requests
}

/// Checks every listed type; called by the host after dlopen, or by the takeover shim instead of
/// an executable's main. Returns the process exit status.
@_cdecl("factcheck_main")
public func factcheckMain() -> Int32 {
    guard let input = getenv("FACTCHECK_INPUT"), let outputPath = getenv("FACTCHECK_OUTPUT") else {
        fputs("factcheck: FACTCHECK_INPUT and FACTCHECK_OUTPUT must be set\n", stderr)
        return 2
    }
    let start = getenv("FACTCHECK_START").flatMap { Int(String(cString: $0)) } ?? 0
    let end = getenv("FACTCHECK_END").flatMap { Int(String(cString: $0)) } ?? Int.max
    let output = Output(path: String(cString: outputPath))
    for request in readRequests(path: String(cString: input)) where request.index >= start && request.index < end {
        output.line("B", String(request.index))
        output.flush()
        // The self-test's stand-in for a runtime crash on one type.
        if let crashAt = getenv("FACTCHECK_CRASH_AT").flatMap({ Int(String(cString: $0)) }), crashAt == request.index {
            abort()
        }
        observe(request, output: output)
        output.line("E", String(request.index))
        output.flush()
    }
    output.line("DONE")
    output.flush()
    return 0
}
