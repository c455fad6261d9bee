import CStaticMirror
import Foundation

/// The Swift toolchain's own static reflection reader, `lib_InternalSwiftStaticMirror.so`
/// (C API: swiftlang/swift `include/swift-c/StaticMirror/BinaryScan.h`), loaded with `dlopen`:
/// the oracle the binary reader's names are compared with. It is built on the same
/// TypeRefBuilder as swift-reflection-dump, resolves symbolic references itself and remangles
/// each type.
enum StaticMirror {
    /// One field descriptor as the library reports it.
    struct FieldInfo {
        /// The described type's mangling (without `$s`), private discriminators as `$<address>`.
        var mangledTypeName: String
        /// Stored properties and payload cases: label and fully qualified type name (nil: unknown).
        var properties: [(label: String, typeName: String?, mangledTypeName: String?)]
        /// Cases without payload.
        var enumCases: [String]
    }

    /// Where the toolchain keeps the library, next to the runtime libraries.
    static let libraryPath = "/opt/swift/usr/lib/swift/linux/lib_InternalSwiftStaticMirror.so"

    /// Why the library cannot be used, or nil when it can.
    static let unavailableReason: String? = {
        switch Library.shared {
        case .success: return nil
        case .failure(let error): return "\(libraryPath): \(error.detail)"
        }
    }()

    struct Failure: Error, CustomStringConvertible {
        var detail: String
        var description: String { detail }
    }

    /// The entry points, resolved once per process (the library is never unloaded).
    private struct Library {
        let create: sm_create_fn
        let dispose: sm_dispose_fn
        let allFieldInfos: sm_all_field_info_set_create_fn
        let disposeFieldInfos: sm_field_info_set_dispose_fn
        let fieldMangledName: sm_field_info_get_mangled_type_name_fn
        let properties: sm_field_info_get_property_info_set_fn
        let enumCases: sm_field_info_get_enum_case_info_set_fn
        let propertyLabel: sm_property_info_get_string_fn
        let propertyTypeName: sm_property_info_get_string_fn
        let propertyMangledTypeName: sm_property_info_get_string_fn
        let caseLabel: sm_enum_case_info_get_label_fn

        static let shared: Result<Library, Failure> = {
            do throws(Failure) { return .success(try Library()) } catch { return .failure(error) }
        }()

        init() throws(Failure) {
            guard FileManager.default.fileExists(atPath: StaticMirror.libraryPath) else { throw Failure(detail: "not installed") }
            guard let handle = dlopen(StaticMirror.libraryPath, RTLD_NOW | RTLD_LOCAL) else {
                throw Failure(detail: "dlopen failed: \(String(cString: dlerror()))")
            }
            func symbol<T>(_ name: String, as type: T.Type) throws(Failure) -> T {
                guard let address = dlsym(handle, "swift_static_mirror_" + name) else {
                    throw Failure(detail: "no symbol swift_static_mirror_\(name)")
                }
                return unsafeBitCast(address, to: type)
            }
            create = try symbol("create", as: sm_create_fn.self)
            dispose = try symbol("dispose", as: sm_dispose_fn.self)
            allFieldInfos = try symbol("all_field_info_set_create", as: sm_all_field_info_set_create_fn.self)
            disposeFieldInfos = try symbol("field_info_set_dispose", as: sm_field_info_set_dispose_fn.self)
            fieldMangledName = try symbol("field_info_get_mangled_type_name", as: sm_field_info_get_mangled_type_name_fn.self)
            properties = try symbol("field_info_get_property_info_set", as: sm_field_info_get_property_info_set_fn.self)
            enumCases = try symbol("field_info_get_enum_case_info_set", as: sm_field_info_get_enum_case_info_set_fn.self)
            propertyLabel = try symbol("property_info_get_label", as: sm_property_info_get_string_fn.self)
            propertyTypeName = try symbol("property_info_get_type_name", as: sm_property_info_get_string_fn.self)
            propertyMangledTypeName = try symbol("property_info_get_mangled_type_name", as: sm_property_info_get_string_fn.self)
            caseLabel = try symbol("enum_case_info_get_label", as: sm_enum_case_info_get_label_fn.self)
        }
    }

    /// The architecture name the library expects (it builds a std::string from it: never null).
    private static var architecture: String {
        #if arch(x86_64)
        return "x86_64"
        #elseif arch(arm64)
        return "aarch64"
        #else
        return "unknown"
        #endif
    }

    private static func text(_ reference: sm_string_ref_t) -> String? {
        guard let data = reference.data, reference.length > 0 else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: reference.length), as: UTF8.self)
    }

    /// Every field descriptor of the binary at `path`, as the toolchain's reader sees it.
    static func fieldInfos(ofBinaryAt path: String) throws -> [FieldInfo] {
        let library = try Library.shared.get()
        let mirror: sm_mirror_t? = path.withCString { pathPointer in
            var paths: [UnsafePointer<CChar>?] = [pathPointer]
            return paths.withUnsafeMutableBufferPointer { library.create(1, $0.baseAddress, architecture) }
        }
        guard let mirror else { throw Failure(detail: "swift_static_mirror_create returned null for \(path)") }
        defer { library.dispose(mirror) }
        guard let set = library.allFieldInfos(mirror) else { return [] }
        defer { library.disposeFieldInfos(set) }
        return (0..<set.pointee.count).compactMap { index in
            guard let info = set.pointee.field_infos[index] else { return nil }
            var properties: [(String, String?, String?)] = []
            if let list = library.properties(info) {
                for item in (0..<list.pointee.count).compactMap({ list.pointee.properties[$0] }) {
                    properties.append(
                        (
                            text(library.propertyLabel(item)) ?? "", text(library.propertyTypeName(item)),
                            text(library.propertyMangledTypeName(item))
                        ))
                }
            }
            var cases: [String] = []
            if let list = library.enumCases(info) {
                cases = (0..<list.pointee.count).compactMap { list.pointee.enum_cases[$0] }.map { text(library.caseLabel($0)) ?? "" }
            }
            return FieldInfo(mangledTypeName: text(library.fieldMangledName(info)) ?? "", properties: properties, enumCases: cases)
        }
    }
}
