import BinaryInfo
import TypeLayout
import TypeLowering

/// The element class of array storage that does not name it: Swift stores every `[C]` of a class
/// `C` as `_ContiguousArrayStorage<AnyObject>`, so by its class alone every array of objects is
/// one type. Its elements say more: each is a reference whose object's first word is its class's
/// metadata. Storage whose elements are all of one class, or of subclasses of one class, is
/// attributed to that class (their nearest common superclass); empty storage, and storage holding
/// an object of a class with nothing in common with the others (or a word that is no Swift
/// object), stays unattributed. Its class's name stays beside the element type
/// (``HeapCensus/Entry/elementType``), so the census never names a class the object does not have.
enum ClassArrayElements {
    /// The storage class whose elements are read, as the census names it.
    static let storageName = "Swift._ContiguousArrayStorage<Swift.AnyObject>"
    /// The most elements read in one census (a reference and an object's first word each); storage
    /// past it stays unattributed. Storage whose elements have no class in common is left at
    /// the first element that shows it, so arrays of unrelated objects cost little.
    static let elementLimit = 1 << 24
    /// The widest span of the target read at once for objects' first words.
    static let windowBytes: UInt64 = 1 << 16

    /// Whether the class metadata is an instantiation of the standard library's
    /// `_ContiguousArrayStorage` (its descriptor named so, its parent the module `Swift`): the
    /// heap walk keeps every such object's address and size.
    static func isArrayStorage(_ metadata: SwiftClassMetadata, _ inspector: TargetInspector) -> Bool {
        let memory = inspector.memory
        guard name(ofContextAt: metadata.descriptor, memory) == "_ContiguousArrayStorage",
            let offset = try? memory.read(Int32.self, at: metadata.descriptor &+ 4, what: "class descriptor parent"), offset != 0
        else { return false }
        var parent = UInt64(bitPattern: Int64(bitPattern: metadata.descriptor &+ 4) &+ Int64(offset & ~1))
        if offset & 1 != 0 {
            guard let indirect = try? memory.read(UInt64.self, at: parent, what: "class descriptor parent") else { return false }
            parent = indirect
        }
        // A module context descriptor's kind is 0 (the low five bits of its flags).
        guard let flags = try? memory.read(UInt32.self, at: parent, what: "module descriptor flags"), flags & 0x1F == 0 else {
            return false
        }
        return name(ofContextAt: parent, memory) == "Swift"
    }

    /// The name a context descriptor's third word points at (at most 63 bytes are read).
    private static func name(ofContextAt descriptor: UInt64, _ memory: TargetMemory) -> String? {
        guard let offset = try? memory.read(Int32.self, at: descriptor &+ 8, what: "context descriptor name") else { return nil }
        let address = UInt64(bitPattern: Int64(bitPattern: descriptor &+ 8) &+ Int64(offset))
        for count in [64, 24] {
            guard let bytes = try? memory.bytes(at: address, count: count, what: "context descriptor name") else { continue }
            guard let end = bytes.firstIndex(of: 0) else { return nil }
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
        return nil
    }

    /// Splits the census entry of each `_ContiguousArrayStorage<AnyObject>` class (in `entries`,
    /// keyed by ``HeapCensus/Entry/key``) by the element class its objects' elements state.
    ///
    /// - Parameters:
    ///   - storages: every array storage object the walk met (address and allocation size), by
    ///     its class metadata.
    ///   - names: the census's names of class metadata (element classes are named here too).
    ///   - attributed: called with each storage object given an element class, and the key of
    ///     the entry it moved to.
    static func attribute(
        _ entries: inout [String: HeapCensus.Entry], storages: [UInt64: [(address: UInt64, bytes: Int)]], names: [UInt64: String],
        addressesPerType: Int, _ inspector: TargetInspector, attributed: (_ address: UInt64, _ key: String) -> Void = { _, _ in }
    ) throws(LiveReadingError) {
        let objects = storages.filter { names[$0.key] == storageName }.values.flatMap { $0 }.sorted { $0.address < $1.address }
        guard !objects.isEmpty else { return }
        // The element class of each storage: the nearest common superclass of its elements'
        // classes, read a chunk of elements at a time, and no further than the first element
        // that has nothing in common with those before it.
        var classes: [UInt64: SwiftClassMetadata?] = [:]
        func metadata(_ word: UInt64) -> SwiftClassMetadata? {
            if let known = classes[word] { return known }
            let found = inspector.classMetadata(at: word)
            classes[word] = found
            return found
        }
        var ancestry: [UInt64: [UInt64]] = [:]
        func chain(_ start: SwiftClassMetadata) -> [UInt64] {
            if let known = ancestry[start.address] { return known }
            var chain = [start.address]
            var current = start
            while let superclass = current.superclass, chain.count < 64, let next = metadata(superclass) {
                chain.append(next.address)
                current = next
            }
            ancestry[start.address] = chain
            return chain
        }
        var budget = elementLimit
        let elementClass = objects.map { object in
            commonClass(ofElementsIn: object.address, budget: &budget, inspector.memory, metadata: metadata, chain: chain)
        }
        // Element classes with live objects are named already; a common superclass may not be.
        var elementNames = names
        let unnamed = Set(elementClass.compactMap { $0 }).filter { names[$0] == nil }
        if !unnamed.isEmpty {
            let more = try LiveInstantiations.lowering { () throws(TypeLoweringError) in try inspector.typeNames(ofMetadata: Array(unnamed))
            }
            elementNames.merge(more) { known, _ in known }
        }
        guard var plain = entries[storageName] else { return }
        plain.addresses = []
        for (object, element) in zip(objects, elementClass) {
            guard let element, let elementName = elementNames[element] else {
                if plain.addresses.count < addressesPerType { plain.addresses.append(object.address) }
                continue
            }
            var entry =
                entries[storageName + " (of \(elementName))"]
                ?? HeapCensus.Entry(type: storageName, count: 0, bytes: 0, instanceSize: plain.instanceSize, elementType: elementName)
            entry.count += 1
            entry.bytes += object.bytes
            if entry.addresses.count < addressesPerType { entry.addresses.append(object.address) }
            entries[entry.key] = entry
            attributed(object.address, entry.key)
            plain.count -= 1
            plain.bytes -= object.bytes
        }
        entries[storageName] = plain.count > 0 ? plain : nil
    }

    /// How many element references are read at once.
    static let chunkElements = 1 << 14

    /// The nearest class every element of the array storage at `storage` is an instance of,
    /// or nil: no elements, an element that is no Swift object of the images' classes, classes
    /// with no common superclass, storage that does not read as an array, or the census's
    /// `budget` of elements spent.
    private static func commonClass(
        ofElementsIn storage: UInt64, budget: inout Int, _ memory: TargetMemory, metadata: (UInt64) -> SwiftClassMetadata?,
        chain: (SwiftClassMetadata) -> [UInt64]
    ) -> UInt64? {
        guard let contents = try? StandardLibraryValues.array(storage: storage, elementAlignment: 8, in: memory), contents.count > 0
        else { return nil }
        var common: [UInt64]?
        var distinct: Set<UInt64> = []
        var lastWord: UInt64 = 0
        for first in stride(from: 0, to: contents.count, by: chunkElements) {
            let count = min(chunkElements, contents.count - first)
            guard count <= budget else { return nil }
            budget -= count
            // The elements straight into the words they are (the target's words are little-endian, as this machine's).
            var references = [UInt64](repeating: 0, count: count)
            let read = references.withUnsafeMutableBytes { raw in
                (try? memory.fetch(into: raw, from: contents.elementsAddress &+ UInt64(first * 8), what: "an array's elements")) != nil
            }
            guard read else { return nil }
            // The common class does not depend on the elements' order: in address order, an
            // object held twice is read once and neighbours share a window.
            references.sort()
            guard let words = firstWords(ofSorted: references, memory) else { return nil }
            for word in words where word != lastWord {
                lastWord = word
                guard let found = metadata(word) else { return nil }
                guard distinct.insert(found.address).inserted else { continue }
                let ancestors = chain(found)
                common = common.map { known in known.filter(ancestors.contains) } ?? ancestors
                if common?.isEmpty == true { return nil }
            }
        }
        return common?.first
    }

    /// The first word of each object at `sorted` (ascending addresses, repeats allowed), read in
    /// windows of up to ``windowBytes`` (objects lie close together in the heap); nil when one
    /// cannot be read (no object is there).
    static func firstWords(ofSorted sorted: [UInt64], _ memory: TargetMemory) -> [UInt64]? {
        // An object's address is pointer-aligned and never in the first page.
        guard (sorted.first ?? 4096) >= 4096, sorted.allSatisfy({ $0 & 7 == 0 }) else { return nil }
        var result: [UInt64] = []
        result.reserveCapacity(sorted.count)
        // One window's buffer for every read, not an array made and copied per window.
        let window = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(windowBytes), alignment: 8)
        defer { window.deallocate() }
        var start = 0
        while start < sorted.count {
            var end = start + 1
            while end < sorted.count, sorted[end] &- sorted[start] < windowBytes - 8 { end += 1 }
            let base = sorted[start]
            let span = Int(sorted[end - 1] &- base) + 8
            let bytes = UnsafeMutableRawBufferPointer(rebasing: window[0..<span])
            if (try? memory.fetch(into: bytes, from: base, what: "objects' first words")) != nil {
                for address in sorted[start..<end] {
                    result.append(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: Int(address - base), as: UInt64.self)))
                }
            } else {
                // A window across unmapped memory: each object on its own.
                for address in sorted[start..<end] {
                    guard let word = try? memory.read(UInt64.self, at: address, what: "an object's first word") else { return nil }
                    result.append(word)
                }
            }
            start = end
        }
        return result
    }
}
