import CSwiftRemoteMirror
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// libswiftRemoteMirror, loaded at run time with dlopen: the toolchain's own out-of-process
/// type lowering (RemoteInspection's TypeConverter).
///
/// This is the only file that touches the library's C API; no C type leaves it.
final class RemoteMirrorLibrary {
    private let handle: UnsafeMutableRawPointer
    let createContext: rm_create_context_fn
    let destroyContext: rm_destroy_context_fn
    let addMappingInfo: rm_add_mapping_info_fn
    let typeRefForMangledName: rm_typeref_for_mangled_name_fn
    let typeRefForMetadata: rm_typeref_for_metadata_fn
    let infoForTypeRef: rm_info_for_typeref_fn
    let childOfTypeRef: rm_child_of_typeref_fn
    let infoForMetadata: rm_info_for_metadata_fn
    let childOfMetadata: rm_child_of_metadata_fn
    let infoForInstance: rm_info_for_instance_fn
    let childOfInstance: rm_child_of_instance_fn
    let copyNameForTypeRef: rm_copy_name_for_typeref_fn
    let dumpInfoForTypeRef: rm_dump_info_for_typeref_fn
    let projectEnumValue: rm_project_enum_value_fn
    let genericArgumentCount: rm_generic_argument_count_fn
    let genericArgument: rm_generic_argument_fn

    /// Loads the library at `path` and looks up every function this module calls.
    init(path: String) throws(TypeLoweringError) {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown dlopen error"
            throw .remoteMirrorUnavailable(path: path, reason: reason)
        }
        self.handle = handle
        func symbol<T>(_ name: String, as type: T.Type) throws(TypeLoweringError) -> T {
            guard let address = dlsym(handle, name) else {
                throw .remoteMirrorUnavailable(path: path, reason: "no symbol \(name)")
            }
            return unsafeBitCast(address, to: type)
        }
        createContext = try symbol("swift_reflection_createReflectionContextWithDataLayout", as: rm_create_context_fn.self)
        destroyContext = try symbol("swift_reflection_destroyReflectionContext", as: rm_destroy_context_fn.self)
        addMappingInfo = try symbol("swift_reflection_addReflectionMappingInfo", as: rm_add_mapping_info_fn.self)
        typeRefForMangledName = try symbol("swift_reflection_typeRefForMangledTypeName", as: rm_typeref_for_mangled_name_fn.self)
        typeRefForMetadata = try symbol("swift_reflection_typeRefForMetadata", as: rm_typeref_for_metadata_fn.self)
        infoForTypeRef = try symbol("swift_reflection_infoForTypeRef", as: rm_info_for_typeref_fn.self)
        childOfTypeRef = try symbol("swift_reflection_childOfTypeRef", as: rm_child_of_typeref_fn.self)
        infoForMetadata = try symbol("swift_reflection_infoForMetadata", as: rm_info_for_metadata_fn.self)
        childOfMetadata = try symbol("swift_reflection_childOfMetadata", as: rm_child_of_metadata_fn.self)
        infoForInstance = try symbol("swift_reflection_infoForInstance", as: rm_info_for_instance_fn.self)
        childOfInstance = try symbol("swift_reflection_childOfInstance", as: rm_child_of_instance_fn.self)
        copyNameForTypeRef = try symbol("swift_reflection_copyNameForTypeRef", as: rm_copy_name_for_typeref_fn.self)
        dumpInfoForTypeRef = try symbol("swift_reflection_dumpInfoForTypeRef", as: rm_dump_info_for_typeref_fn.self)
        projectEnumValue = try symbol("swift_reflection_projectEnumValue", as: rm_project_enum_value_fn.self)
        genericArgumentCount = try symbol("swift_reflection_genericArgumentCountOfTypeRef", as: rm_generic_argument_count_fn.self)
        genericArgument = try symbol("swift_reflection_genericArgumentOfTypeRef", as: rm_generic_argument_fn.self)
    }

    deinit { dlclose(handle) }

    /// The address of one of the library's symbols, or nil (a function this module calls only
    /// when asked, such as the concurrency entry points).
    func symbol(named name: String) -> UnsafeMutableRawPointer? { dlsym(handle, name) }
}

/// One reflection context, over the images of an ``ImageMemory`` (files laid out in the worker:
/// remote addresses are the local addresses of the images' copies, so reads need no translation
/// beyond a bounds check) or over a target's memory (``TargetMirrorMemory``: remote addresses are
/// the target's, and each read is a copy out of it).
final class RemoteMirrorContext {
    let library: RemoteMirrorLibrary
    /// What the library's read callbacks read (an ``ImageMemory`` or a ``TargetMirrorMemory``),
    /// kept alive for as long as the context.
    private let memory: AnyObject
    let context: rm_context_t

    /// - Parameter importedStructRecords: register only the first image and `libswiftCore.so`, and
    ///   builtin type descriptors (`swift5_builtin`) of `libswiftCore.so` alone (the `Builtin.*`
    ///   types): the library then lowers the C structs the first image imports through their field
    ///   records instead of as opaque blocks (see ``LoweringSession/lowerImportedFields(mangling:)``),
    ///   and indexes no other image's records for it.
    init(library: RemoteMirrorLibrary, memory: ImageMemory, importedStructRecords: Bool = false) throws(TypeLoweringError) {
        self.library = library
        self.memory = memory
        let opaque = Unmanaged.passUnretained(memory).toOpaque()
        guard
            let context = library.createContext(
                opaque,
                { _, type, _, output in
                    // Pointer and size_t are 8 bytes on the 64-bit targets this reader accepts.
                    guard let output, type == Int32(RM_DLQ_GET_POINTER_SIZE) || type == Int32(RM_DLQ_GET_SIZE_SIZE) else { return 0 }
                    output.storeBytes(of: UInt8(8), as: UInt8.self)
                    return 1
                },
                { _, _, _ in },
                { reader, address, size, freeContext in
                    freeContext?.pointee = nil
                    guard let reader else { return nil }
                    return Unmanaged<ImageMemory>.fromOpaque(reader).takeUnretainedValue().bytes(at: address, count: size)
                },
                { reader, address in
                    guard let reader else { return 0 }
                    return Unmanaged<ImageMemory>.fromOpaque(reader).takeUnretainedValue().stringLength(at: address)
                },
                { reader, name, length in
                    guard let reader, let name else { return 0 }
                    let text = String(decoding: UnsafeRawBufferPointer(start: name, count: Int(length)), as: UTF8.self)
                    return Unmanaged<ImageMemory>.fromOpaque(reader).takeUnretainedValue().symbolAddress(text) ?? 0
                }
            )
        else { throw .remoteMirrorUnavailable(path: "libswiftRemoteMirror", reason: "could not create a reflection context") }
        self.context = context
        for (index, image) in memory.images.enumerated() {
            let isStandardLibrary = image.image.path.hasSuffix("/libswiftCore.so")
            guard !importedStructRecords || index == 0 || isStandardLibrary else { continue }
            add(image, builtins: !importedStructRecords || isStandardLibrary)
        }
    }

    /// A context whose reads go to a target's memory (``TargetMirrorMemory``), with the
    /// reflection sections of the target's Swift images registered at their target addresses.
    init(library: RemoteMirrorLibrary, target: TargetMirrorMemory) throws(TypeLoweringError) {
        self.library = library
        self.memory = target
        guard
            let context = library.createContext(
                Unmanaged.passUnretained(target).toOpaque(),
                { _, type, _, output in
                    // A 64-bit Linux process: no pointer authentication, no Objective-C, and
                    // pointers below 4 KiB are a reference's extra inhabitants (`Optional<C>.none`
                    // is 0), which the library needs to tell an optional reference's case.
                    guard let output else { return 0 }
                    switch type {
                    case Int32(RM_DLQ_GET_POINTER_SIZE), Int32(RM_DLQ_GET_SIZE_SIZE): output.storeBytes(of: UInt8(8), as: UInt8.self)
                    case Int32(RM_DLQ_GET_PTRAUTH_MASK): output.storeBytes(of: UInt64.max, as: UInt64.self)
                    case Int32(RM_DLQ_GET_OBJC_RESERVED_LOW_BITS): output.storeBytes(of: UInt8(0), as: UInt8.self)
                    case Int32(RM_DLQ_GET_LEAST_VALID_POINTER_VALUE): output.storeBytes(of: UInt64(0x1000), as: UInt64.self)
                    case Int32(RM_DLQ_GET_OBJC_INTEROP_IS_ENABLED): output.storeBytes(of: false, as: Bool.self)
                    default: return 0
                    }
                    return 1
                },
                { _, bytes, _ in TargetMirrorMemory.release(bytes) },
                { reader, address, size, freeContext in
                    freeContext?.pointee = nil
                    guard let reader else { return nil }
                    return Unmanaged<TargetMirrorMemory>.fromOpaque(reader).takeUnretainedValue().copy(at: address, count: size)
                },
                { reader, address in
                    guard let reader else { return 0 }
                    return Unmanaged<TargetMirrorMemory>.fromOpaque(reader).takeUnretainedValue().stringLength(at: address)
                },
                { reader, name, length in
                    // The concurrency readers ask for the runtime's `_swift_concurrency_debug_*` variables.
                    guard let reader, let name else { return 0 }
                    let text = String(decoding: UnsafeRawBufferPointer(start: name, count: Int(length)), as: UTF8.self)
                    return Unmanaged<TargetMirrorMemory>.fromOpaque(reader).takeUnretainedValue().symbolAddress(text) ?? 0
                }
            )
        else { throw .remoteMirrorUnavailable(path: "libswiftRemoteMirror", reason: "could not create a reflection context") }
        self.context = context
        for sections in target.reflectionSections {
            func mapping(_ name: String) -> rm_section_mapping_t {
                guard let section = sections[name], let base = section.local.baseAddress else {
                    return rm_section_mapping_t(
                        local_section: rm_section_t(Begin: nil, End: nil), remote_section: rm_remote_section_t(StartAddress: 0, Size: 0))
                }
                return rm_section_mapping_t(
                    local_section: rm_section_t(Begin: base, End: base + section.local.count),
                    remote_section: rm_remote_section_t(StartAddress: UInt(section.remote), Size: UInt(section.local.count)))
            }
            library.addMappingInfo(
                context,
                rm_mapping_info_t(
                    field: mapping("swift5_fieldmd"), associated_types: mapping("swift5_assocty"),
                    builtin_types: mapping("swift5_builtin"), capture: mapping("swift5_capture"),
                    type_references: mapping("swift5_typeref"), reflection_strings: mapping("swift5_reflstr")))
        }
    }

    deinit {
        library.destroyContext(context)
        if savedStandardOutput >= 0 { close(savedStandardOutput) }
        if discardingOutput >= 0 { close(discardingOutput) }
        dumpBuffer.deallocate()
    }

    /// The library prints its TypeInfo dump through C++'s `std::cout` (synchronised with C's
    /// `stdout`), all of it: a large type's nested dump costs far more to format than the first
    /// line holds. So `stdout` gets a small buffer of its own, and file descriptor 1 points at
    /// `/dev/full` during the call: the first bytes stay in the buffer, where they are read; once
    /// it is full its flush fails, `std::cout` turns bad and formats nothing more. Afterwards the
    /// buffer is dropped (`__fpurge`), the error cleared and `std::cout` made good again.
    private let dumpBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: RemoteMirrorContext.dumpBufferSize, alignment: 16)
    /// Room for the dump's first line, the type's own (under 200 bytes: a kind and five numbers),
    /// and little more: what the library formats before the buffer fills is cost for nothing.
    static let dumpBufferSize = 256
    private var savedStandardOutput: Int32 = -1
    private var discardingOutput: Int32 = -1
    private var outputStream: CStandardOutput?

    /// The start of RemoteInspection's TypeInfo dump of a typeref (at most ``dumpBufferSize``
    /// bytes), which says what the C API's `swift_typeinfo_t` does not: `num_extra_inhabitants=`,
    /// `bitwise_takable=`. Nil when the standard output cannot be redirected.
    func dump(of typeRef: UInt64) -> String? {
        if outputStream == nil {
            guard let stream = CStandardOutput(buffer: dumpBuffer) else { return nil }
            outputStream = stream
            savedStandardOutput = dup(1)
            discardingOutput = open("/dev/full", O_WRONLY | O_CLOEXEC)
        }
        guard let stream = outputStream, let base = dumpBuffer.baseAddress, savedStandardOutput >= 0, discardingOutput >= 0 else {
            return nil
        }
        base.initializeMemory(as: UInt8.self, repeating: 0, count: dumpBuffer.count)
        guard dup2(discardingOutput, 1) >= 0 else { return nil }
        library.dumpInfoForTypeRef(context, typeRef)
        stream.reset()
        _ = dup2(savedStandardOutput, 1)
        let bytes = UnsafeRawBufferPointer(start: base, count: dumpBuffer.count)
        let end = bytes.firstIndex(of: 0) ?? bytes.count
        guard end > 0 else { return nil }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// The case index of the enum value at `address` (a ``ImageMemory/probe(_:)`` address), as the
    /// library decodes it; nil when it cannot.
    func caseIndex(ofValueAt address: UInt64, typeRef: UInt64) -> Int? {
        var index: Int32 = -1
        guard library.projectEnumValue(context, address, typeRef, &index) != 0, index >= 0 else { return nil }
        return Int(index)
    }

    private func add(_ image: ImageMemory.MappedImage, builtins: Bool) {
        func mapping(_ name: String) -> rm_section_mapping_t {
            guard let section = image.image.swiftSections[name], builtins || name != "swift5_builtin" else {
                return rm_section_mapping_t(
                    local_section: rm_section_t(Begin: nil, End: nil), remote_section: rm_remote_section_t(StartAddress: 0, Size: 0))
            }
            let start = image.base + Int(section.address)
            return rm_section_mapping_t(
                local_section: rm_section_t(Begin: start, End: start + Int(section.size)),
                remote_section: rm_remote_section_t(StartAddress: UInt(bitPattern: start), Size: UInt(section.size))
            )
        }
        library.addMappingInfo(
            context,
            rm_mapping_info_t(
                field: mapping("swift5_fieldmd"), associated_types: mapping("swift5_assocty"),
                builtin_types: mapping("swift5_builtin"), capture: mapping("swift5_capture"),
                type_references: mapping("swift5_typeref"), reflection_strings: mapping("swift5_reflstr")
            ))
    }

    /// The typeref for a mangled type name without its `$s` prefix, or nil if the library cannot build one.
    func typeRef(mangledName: String) -> UInt64? {
        let full = "$s" + mangledName
        let typeRef = full.withCString { library.typeRefForMangledName(context, $0, UInt64(full.utf8.count)) }
        return typeRef == 0 ? nil : typeRef
    }

    /// The typeref for the type whose metadata record is at `metadata` (in the memory's images or scratch).
    func typeRef(metadata: UInt64) -> UInt64? {
        let typeRef = library.typeRefForMetadata(context, UInt(metadata))
        return typeRef == 0 ? nil : typeRef
    }

    /// The lowered layout of a typeref, or nil when the library knows nothing about it.
    func info(of typeRef: UInt64) -> LoweredInfo? {
        LoweredInfo(library.infoForTypeRef(context, typeRef))
    }

    /// The layout of the type whose metadata record is at `metadata`; for a class, its instance
    /// (laid out by the library after the superclass the record names: none for a synthetic one).
    func info(ofMetadata metadata: UInt64) -> LoweredInfo? {
        LoweredInfo(library.infoForMetadata(context, UInt(metadata)))
    }

    /// Child `index` of the type whose metadata record is at `metadata`: the field's typeref as the
    /// library read it from the field record (symbolic references resolved by the library).
    func child(ofMetadata metadata: UInt64, at index: Int) -> LoweredChild? {
        LoweredChild(library.childOfMetadata(context, UInt(metadata), UInt32(index)))
    }

    /// The layout of the heap object at `object` in the target: for a closure context, its
    /// captures as fields (nil when the library knows nothing of it).
    func info(ofInstance object: UInt64) -> LoweredInfo? {
        LoweredInfo(library.infoForInstance(context, UInt(object)))
    }

    /// Child `index` of the heap object at `object`: a closure context's capture.
    func child(ofInstance object: UInt64, at index: Int) -> LoweredChild? {
        LoweredChild(library.childOfInstance(context, UInt(object), UInt32(index)))
    }

    /// A typeref's mangled name (without `$s`), or nil.
    func mangledName(of typeRef: UInt64) -> String? {
        guard let name = library.copyNameForTypeRef(context, typeRef, true) else { return nil }
        defer { free(name) }
        let text = String(cString: name)
        return text.hasPrefix("$s") ? String(text.dropFirst(2)) : text
    }

    /// The generic arguments a bound generic typeref binds at its own level, in order (nil for
    /// one the library did not give); empty for a type that is none.
    func genericArguments(of typeRef: UInt64) -> [UInt64?] {
        let count = min(Int(library.genericArgumentCount(typeRef)), LoweringWire.maximumChildren)
        return (0..<count).map { index in
            let argument = library.genericArgument(typeRef, UInt32(index))
            return argument == 0 ? nil : argument
        }
    }

    /// Child `index` of a typeref (a field, tuple element or enum case).
    func child(of typeRef: UInt64, at index: Int) -> LoweredChild? {
        LoweredChild(library.childOfTypeRef(context, typeRef, UInt32(index)))
    }
}

/// How the toolchain's type lowering lays a value out: `swift_layout_kind_t`, by value
/// (SwiftRemoteMirrorTypes.h). Its case names are its spelling on the worker's wire and in output.
public enum LoweredKind: Int, Sendable, CaseIterable {
    case unknown, builtin, rawPointer, tuple, `struct`, noPayloadEnum, singlePayloadEnum, multiPayloadEnum
    case thickFunction, opaqueExistential, classExistential, errorExistential, existentialMetatype
    case strongReference, unownedReference, weakReference, unmanagedReference, classInstance, closureContext

    /// The kind's name: `strongReference`, `multiPayloadEnum`.
    public var wireName: String {
        switch self {
        case .unknown: return "unknown"
        case .builtin: return "builtin"
        case .rawPointer: return "rawPointer"
        case .tuple: return "tuple"
        case .struct: return "struct"
        case .noPayloadEnum: return "noPayloadEnum"
        case .singlePayloadEnum: return "singlePayloadEnum"
        case .multiPayloadEnum: return "multiPayloadEnum"
        case .thickFunction: return "thickFunction"
        case .opaqueExistential: return "opaqueExistential"
        case .classExistential: return "classExistential"
        case .errorExistential: return "errorExistential"
        case .existentialMetatype: return "existentialMetatype"
        case .strongReference: return "strongReference"
        case .unownedReference: return "unownedReference"
        case .weakReference: return "weakReference"
        case .unmanagedReference: return "unmanagedReference"
        case .classInstance: return "classInstance"
        case .closureContext: return "closureContext"
        }
    }

    /// The kind named `wireName`, or nil for a name no kind has.
    public init?(wireName: String) {
        guard let kind = Self.byWireName[wireName] else { return nil }
        self = kind
    }

    private static let byWireName: [String: LoweredKind] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.wireName, $0) })
}

/// What infoForTypeRef says about one type.
struct LoweredInfo: Sendable {
    var kind: LoweredKind
    var size: Int
    var alignment: Int
    var stride: Int
    var fieldCount: Int

    /// The library's answer (of infoForTypeRef, infoForMetadata or infoForInstance); nil when it
    /// knows nothing of the type.
    init?(_ info: rm_typeinfo_t) {
        guard let kind = LoweredKind(rawValue: Int(info.Kind.rawValue)), kind != .unknown else { return nil }
        self.kind = kind
        size = Int(info.Size)
        alignment = Int(info.Alignment)
        stride = Int(info.Stride)
        fieldCount = Int(info.NumFields)
    }
}

/// What childOfTypeRef says about one child.
struct LoweredChild: Sendable {
    var name: String
    var offset: Int
    /// The child's own lowering, which its typeref need not have: a weak existential's
    /// `object` is a weak reference, its typeref the strong one it was made from.
    var kind: LoweredKind
    var typeRef: UInt64?

    /// The library's answer (of childOfTypeRef, childOfMetadata or childOfInstance).
    init(_ child: rm_childinfo_t) {
        name = child.Name.map { String(cString: $0) } ?? ""
        offset = Int(child.Offset)
        kind = LoweredKind(rawValue: Int(child.Kind.rawValue)) ?? .unknown
        typeRef = child.TR == 0 ? nil : child.TR
    }
}
