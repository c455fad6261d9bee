import BinaryInfo
import TypeLayout

/// The classes a reading needs for instance layouts: the file's own, and the ancestors that live
/// in its dependencies (read with BinaryInfo on first need).
///
/// libswiftRemoteMirror lowers a class typeref only as a reference, and its instance layouts
/// (from metadata) add up every ancestor's size on Linux. So an instance is laid out here, the
/// way the compiler lays out a class (`lib/IRGen/StructLayout`): the superclass's instance
/// first (the 16-byte object header at the root), then each stored property in declaration
/// order at the next multiple of its alignment. Each property's size and alignment come from
/// the library's lowering of its type.
struct ClassCatalog {
    /// A class as read from one image.
    struct Entry {
        var layout: TypeLayout
        /// Whether `layout.fields` begins with the superclass's fields (BinaryInfo lists them
        /// when the superclass is in the same image).
        var ownFieldsStart: Int
    }

    /// Swift's native object header on Linux: metadata pointer and reference counts.
    static let headerSize = 16
    static let headerAlignment = 8

    private var entries: [String: Entry] = [:]
    private let dependencies: [String]
    /// Dependencies already read for superclasses.
    private var read: Set<String> = []
    private var memo: [String: InstanceLayout?] = [:]
    private(set) var notes: [LayoutNote] = []

    struct InstanceLayout {
        var size: Int
        var alignment: Int
        var fields: [FieldLayout]
    }

    init(local: [TypeLayout], dependencies: [String]) {
        self.dependencies = dependencies
        add(local)
    }

    /// The libswiftCore.so among the dependencies: a dependency's types are read with its
    /// runtime's value witness tables, as the file's own are.
    private var runtimeLibrary: String? {
        dependencies.first { $0.split(separator: "/").last == "libswiftCore.so" }
    }

    private mutating func add(_ types: [TypeLayout]) {
        var byMangling: [String: TypeLayout] = [:]
        for type in types where type.kind == .class {
            if let mangling = type.nominalMangledName { byMangling[mangling] = type }
        }
        for (mangling, type) in byMangling where entries[mangling] == nil {
            var start = 0
            if let parent = type.superclassMangledName.flatMap({ byMangling[$0] }) { start = min(parent.fields.count, type.fields.count) }
            entries[mangling] = Entry(layout: type, ownFieldsStart: start)
        }
    }

    /// The class `mangling`, reading the dependencies once if it is not local.
    private mutating func entry(_ mangling: String) -> Entry? {
        if let found = entries[mangling] { return found }
        // A bound generic superclass (`…G`) is laid out by no one here: do not read for it.
        guard !mangling.hasSuffix("G") else { return nil }
        // Libraries are read one at a time, those whose file name holds the mangling's module
        // first (`10Foundation…` -> libFoundation.so), until the class turns up.
        let module = Self.moduleName(of: mangling)
        let ordered =
            dependencies.filter { path in module.map { path.split(separator: "/").last?.contains($0) == true } ?? false }
            + dependencies.filter { path in !(module.map { path.split(separator: "/").last?.contains($0) == true } ?? false) }
        for path in ordered where !read.contains(path) {
            read.insert(path)
            do {
                add(try BinaryImage.layouts(atPath: path, runtimeLibrary: runtimeLibrary).types)
            } catch {
                notes.append(.dependencyUnreadable(path: path, problem: error.problem))
            }
            if let found = entries[mangling] { return found }
        }
        return nil
    }

    /// The module of a mangled nominal type: `s` is Swift, `So` imported C, else the leading identifier.
    static func moduleName(of mangling: String) -> String? {
        if mangling.hasPrefix("s") { return "swiftCore" }
        let digits = mangling.prefix { $0.isASCII && $0.isNumber }
        guard let length = Int(digits), length > 0 else { return nil }
        let rest = mangling.dropFirst(digits.count)
        guard rest.count >= length else { return nil }
        return String(rest.prefix(length))
    }

    /// The field type manglings to lower for the class `mangling` and its ancestors, and the
    /// classes in that chain with a stored property whose type has no lowerable mangling (their
    /// field records are handed to the library whole: ``LoweringSession/lowerInstance(mangling:)``).
    mutating func fieldTypeManglings(ofClass mangling: String) -> (types: [String], instances: [String]) {
        var result: [String] = []
        var instances: [String] = []
        var current: String? = mangling
        var depth = 0
        while let name = current, depth < 64, let found = entry(name) {
            var complete = true
            for field in found.layout.fields.dropFirst(found.ownFieldsStart) {
                // A private class (`…LLC`) in a mangling the library cannot resolve by name.
                if let type = Self.lowerableMangling(of: field), !type.contains("LLC") { result.append(type) } else { complete = false }
            }
            if !complete { instances.append(name) }
            current = found.layout.superclassMangledName
            depth += 1
        }
        return (result, instances)
    }

    /// A field's mangled type, when its textual spelling names the same type the field has: a
    /// spelled-out symbolic reference can shift later substitutions onto another entity, and a
    /// mangling that demangles to something else must not be lowered in its place.
    static func lowerableMangling(of field: FieldLayout) -> String? {
        guard let mangling = field.mangledType else { return nil }
        // Reference storage (weak `Xw`, unowned `Xo`, unowned(unsafe) `Xu`) wraps the declared type.
        var declared = Substring(mangling)
        if ["Xw", "Xo", "Xu"].contains(where: { mangling.hasSuffix($0) }) { declared = declared.dropLast(2) }
        guard SwiftDemangler.typeName(mangling: String(declared)) == field.type else { return nil }
        return mangling
    }

    /// The instance layout of the class `mangling`, or nil when any part of it is unknown.
    mutating func instanceLayout(ofClass mangling: String, lowered: [String: LoweredType], depth: Int = 0) -> InstanceLayout? {
        if let known = memo[mangling] { return known }
        guard depth < 64, let found = entry(mangling) else { return nil }
        let layout = found.layout
        // Actors carry the default-actor storage after the header, of a size this reader does not
        // derive; imported C and CF classes (`__C`, `So…`) are not laid out like Swift objects.
        guard layout.module != "__C", !mangling.hasPrefix("So"),
            !layout.conformances.contains(where: { $0.hasSuffix(".Actor") || $0.hasSuffix(".DistributedActor") })
        else {
            memo[mangling] = .some(nil)
            return nil
        }
        // A superclass named only by a mangling that cannot be spelled (a bound generic class
        // whose arguments include a private type) is still a superclass: its instance is unknown
        // here, not absent.
        if layout.superclass != nil, layout.superclassMangledName == nil {
            memo[mangling] = .some(nil)
            return nil
        }
        var result = InstanceLayout(size: Self.headerSize, alignment: Self.headerAlignment, fields: [])
        if let parent = layout.superclassMangledName {
            guard let inherited = instanceLayout(ofClass: parent, lowered: lowered, depth: depth + 1) else {
                memo[mangling] = .some(nil)
                return nil
            }
            result = inherited
        }
        var offset = result.size
        // Properties whose type has no lowerable mangling: as the library read the field record.
        let fromRecord = lowered[LoweringWire.instanceKey(mangling)].map { answer in
            Dictionary(answer.children.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
        for field in layout.fields.dropFirst(found.ownFieldsStart) {
            var typeSize: (size: Int, alignment: Int)?
            if let type = Self.lowerableMangling(of: field), !type.contains("LLC") {
                if let answer = lowered[type], answer.kind != nil, let size = answer.size, let alignment = answer.alignment {
                    typeSize = (size, alignment)
                }
            } else if let child = fromRecord?[field.name], let kind = child.kind, kind != .unknown, let size = child.size,
                let alignment = child.alignment
            {
                typeSize = (size, alignment)
            }
            guard let (size, alignment) = typeSize, alignment > 0 else {
                memo[mangling] = .some(nil)
                return nil
            }
            offset = (offset + alignment - 1) / alignment * alignment
            var placed = field
            placed.offset = offset
            placed.size = size
            placed.alignment = alignment
            result.fields.append(placed)
            offset += size
            result.alignment = max(result.alignment, alignment)
        }
        result.size = offset
        memo[mangling] = result
        return result
    }
}
