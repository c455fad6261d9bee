import TypeLayout

extension SwiftImage {
    /// Reads every nominal type and protocol the image's Swift sections list, in section order.
    ///
    /// A record that cannot be read is skipped with a note; if no record can be read at all,
    /// the first error is thrown, so a malformed file is reported rather than dumped as empty.
    ///
    /// - Parameter selects: when given, only the types it accepts (judged by name, kind and
    ///   module) and the types they need (``descriptorsNeeded(among:selects:)``) are laid out and
    ///   returned, with every protocol; their layouts are those of a whole reading.
    func readTypes(selecting selects: ((TypeLayout) -> Bool)? = nil) throws(BinaryInfoError) -> [TypeLayout] {
        var failures: [(UInt64, BinaryInfoError)] = []
        var attempted = 0

        // 1. Type descriptors, from swift5_type_metadata (and its overflow section).
        var descriptors: [TypeDescriptor] = []
        var seen: Set<UInt64> = []
        for sectionName in ["swift5_type_metadata", "swift5_type_metadata_2"] {
            for record in try recordAddresses(in: sectionName) {
                attempted += 1
                do {
                    // TypeMetadataRecord: relative pointer whose low two bits are a TypeReferenceKind.
                    let raw = try space.read(Int32.self, at: record, what: "type metadata record")
                    guard let target = try space.apply(offset: Int64(raw & ~3), to: record, what: "type metadata record") else {
                        continue
                    }
                    let descriptorAddress: UInt64
                    switch raw & 3 {
                    case 0: descriptorAddress = target
                    case 1:
                        guard case .address(let address)? = try space.pointer(at: target, what: "indirect type descriptor") else {
                            continue
                        }
                        descriptorAddress = address
                    default: continue  // Objective-C class references: not on Linux.
                    }
                    guard seen.insert(descriptorAddress).inserted else { continue }
                    let context = try contextDescriptor(at: descriptorAddress)
                    // An -Onone build registers the opaque result types of `some P` declarations
                    // here too: valid records of a type without a layout of its own to list.
                    if context.kind == .opaqueType { continue }
                    descriptors.append(try typeDescriptor(of: context))
                } catch {
                    failures.append((record, error))
                }
            }
        }

        // 1b. Descriptors without a metadata record: named by field descriptors or as parents.
        do {
            for address in try typeDescriptorsNotListed(known: seen, listed: descriptors) {
                attempted += 1
                do {
                    descriptors.append(try typeDescriptor(at: address))
                } catch {
                    failures.append((address, error))
                }
            }
        } catch {
            notes.append(.unlistedTypesUnreadable(problem: error.problem))
        }

        // 1c. A selective reading lays out only what the selection needs.
        var needed: Set<UInt64>?
        if let selects { needed = descriptorsNeeded(among: descriptors, selects: selects) }
        let laidOutCandidates = needed.map { needed in descriptors.filter { needed.contains($0.address) } } ?? descriptors

        // 2. Static metadata, found through the pointers that name each descriptor.
        var kinds: [UInt64: ContextKind] = [:]
        // Foreign metadata (imported C types, kind 2) is complete on disk; only the runtime's
        // uniquing is left to do. Singleton initialisation (kind 1) is not: skip it.
        for descriptor in laidOutCandidates where !descriptor.context.isGeneric && descriptor.context.metadataInitialization != 1 {
            if let kind = descriptor.kind { kinds[descriptor.address] = kind }
        }
        let metadata = staticMetadata(for: kinds)

        // 3. Conformances, by conforming type descriptor.
        var conformances: [UInt64: [String]] = [:]
        for record in try recordAddresses(in: "swift5_protocol_conformances") {
            do {
                guard let conformance = try space.relativeTarget(at: record, what: "conformance record") else { continue }
                guard let (type, proto) = try readConformance(at: conformance, wanted: { needed?.contains($0) ?? true }) else { continue }
                conformances[type, default: []].append(proto)
            } catch {
                failures.append((record, error))
            }
        }

        // 4. Layouts.
        var layouts: [TypeLayout] = []
        // Kept beside `layouts`, position for position: a descriptor that cannot be laid out
        // is skipped in both, so one corrupt record never shifts another type's superclass.
        var laidOut: [TypeDescriptor] = []
        var layoutIndexByMangling: [String: Int] = [:]
        var runtimeInitialised = 0
        for descriptor in laidOutCandidates {
            do {
                var layout = try typeLayout(for: descriptor, metadata: metadata[descriptor.address])
                layout.conformances = conformances[descriptor.address] ?? []
                if !descriptor.context.isGeneric, descriptor.context.metadataInitialization == 1 { runtimeInitialised += 1 }
                if let mangled = layout.nominalMangledName { layoutIndexByMangling[mangled] = layouts.count }
                layouts.append(layout)
                laidOut.append(descriptor)
            } catch {
                failures.append((descriptor.address, error))
            }
        }
        prependSuperclassFields(&layouts, superclassManglings: laidOut.map { $0.superclassMangling?.text }, index: layoutIndexByMangling)

        // Builtin type descriptors: layouts of imported C types (whose metadata the runtime
        // completes) and of builtin field types.
        var builtins: [String: ValueWitnessLayout] = [:]
        do {
            builtins = try builtinTypeLayouts()
        } catch {
            notes.append(.builtinDescriptorsUnreadable(problem: error.problem))
        }
        for position in layouts.indices where layouts[position].size == nil && layouts[position].genericParameters.isEmpty {
            if let mangled = layouts[position].nominalMangledName, let builtin = builtins[mangled] {
                layouts[position].size = builtin.size
                layouts[position].alignment = builtin.alignment
                layouts[position].stride = builtin.stride
            }
        }

        // Field sizes of types this image defines or describes.
        var known = builtins
        for layout in layouts {
            if let mangled = layout.nominalMangledName, let size = layout.size, let alignment = layout.alignment, let stride = layout.stride
            {
                known[mangled] = ValueWitnessLayout(size: size, alignment: alignment, stride: stride)
            }
        }
        for position in layouts.indices {
            for field in layouts[position].fields.indices
            where layouts[position].fields[field].size == nil && layouts[position].fields[field].ownership == .strong {
                if let mangled = layouts[position].fields[field].mangledType,
                    let layout = known[mangled] ?? runtimeBuiltinLayout(mangled)
                {
                    layouts[position].fields[field].size = layout.size
                    layouts[position].fields[field].alignment = layout.alignment
                }
                if layouts[position].fields[field].hasBuiltinVectorType { layouts[position].fields[field].alignment = nil }
            }
        }

        runtimeSharedForeignTypes = withholdRuntimeSharedLayouts(&layouts, descriptors: laidOut)

        // 5. Protocols.
        for record in try recordAddresses(in: "swift5_protocols") {
            attempted += 1
            do {
                guard case .address(let address)? = try relativeIndirectable(at: record, what: "protocol record") else { continue }
                if let layout = try protocolLayout(at: address) { layouts.append(layout) }
            } catch {
                failures.append((record, error))
            }
        }

        let hasFieldRecords = (sections["swift5_fieldmd"] ?? []).contains { $0.size > 0 }
        if !hasFieldRecords, !descriptors.isEmpty {
            notes.append(.fieldDescriptorsMissing)
        }
        if runtimeInitialised > 0 {
            notes.append(.loadTimeMetadata(count: runtimeInitialised))
        }
        if let runtimeProblem { notes.append(runtimeProblem) }
        if let (address, error) = failures.first {
            if layouts.isEmpty && attempted > 0 { throw error }
            notes.append(.recordsUnreadable(count: failures.count, firstAddress: address, problem: error.problem))
        }
        return layouts
    }

    /// The addresses of the 4-byte records of every section named `sectionName`, in file order:
    /// generated as they are read, so a large table costs no memory before its records do.
    func recordAddresses(in sectionName: String) throws(BinaryInfoError) -> FlattenSequence<[StrideTo<UInt64>]> {
        var tables: [StrideTo<UInt64>] = []
        for section in sections[sectionName] ?? [] where section.size > 0 {
            let end = try recordTableEnd(section, name: sectionName, recordSize: 4)
            tables.append(Swift.stride(from: section.address, to: end, by: 4))
        }
        return tables.joined()
    }

    /// The end address of a record table: its size must be a whole number of records, and the
    /// table must lie inside the address space (sections with file bytes are already checked
    /// against the file's size, so the record count is bounded by it).
    func recordTableEnd(_ section: (address: UInt64, size: UInt64), name: String, recordSize: UInt64) throws(BinaryInfoError) -> UInt64 {
        guard section.size % recordSize == 0 else {
            throw BinaryInfoError.malformedRecord(
                path: path, what: "section \(name)", address: section.address,
                detail: "size \(section.size) is not a multiple of \(recordSize)")
        }
        let (end, overflow) = section.address.addingReportingOverflow(section.size)
        guard !overflow else {
            throw BinaryInfoError.outOfBounds(path: path, what: "section \(name)", address: section.address, length: section.size)
        }
        return end
    }

    /// Reads a protocol conformance descriptor: the protocol (relative indirectable, +0), the
    /// conforming type (relative, +4, interpreted by the flags' TypeReferenceKind in bits 3-5).
    /// Conformances of types `wanted` rejects are not named (nil).
    private func readConformance(at address: UInt64, wanted: (UInt64) -> Bool) throws(BinaryInfoError) -> (UInt64, String)? {
        guard let proto = try relativeIndirectable(at: address, what: "conformance protocol") else { return nil }
        let flags = try space.read(UInt32.self, at: address &+ 12, what: "conformance flags")
        guard let typeReference = try space.relativeTarget(at: address &+ 4, what: "conformance type") else { return nil }
        let type: UInt64
        switch (flags >> 3) & 7 {
        case 0: type = typeReference
        case 1:
            guard case .address(let address)? = try space.pointer(at: typeReference, what: "indirect conforming type") else { return nil }
            type = address
        default: return nil
        }
        guard wanted(type) else { return nil }
        guard let protocolMangling = try mangling(of: proto) else { return nil }
        return (type, protocolName(forMangling: protocolMangling))
    }

    /// A protocol's qualified name, demangled through its descriptor symbol's spelling.
    func protocolName(forMangling mangling: String) -> String {
        if let known = demangled["protocol " + mangling] ?? nil { return known }
        let prefix = "protocol descriptor for "
        var name = mangling
        if let text = SwiftDemangler.demangle(symbol: "$s" + mangling + "Mp"), text.hasPrefix(prefix) {
            name = String(text.dropFirst(prefix.count))
        }
        demangled["protocol " + mangling] = name
        return name
    }

    private func protocolLayout(at address: UInt64) throws(BinaryInfoError) -> TypeLayout? {
        let context = try contextDescriptor(at: address)
        guard context.kind == .protocol, let mangling = try mangling(ofContextAt: address, depth: 0) else { return nil }
        let name = protocolName(forMangling: mangling)
        // As a type, a protocol is mangled with its `P` (`s9CodingKeyP`), a standard one without
        // (`SK`); shown only if it demangles to the name.
        return TypeLayout(
            name: name, mangledName: checkedMangling(mangling + "P", printed: name) ?? checkedMangling(mangling, printed: name),
            kind: .protocol,
            module: try moduleName(of: context), source: .metadata
        )
    }

    /// The name of the module that (ultimately) contains a context.
    func moduleName(of context: ContextDescriptor) throws(BinaryInfoError) -> String? {
        var module = context.kind == .module ? context : nil
        for ancestor in ancestors(of: context) where module == nil {
            let parent = try ancestor.get()
            if parent.kind == .module { module = parent }
        }
        guard let module else { return nil }
        return try relativeString(at: module.address &+ 8, what: "module name")
    }
}
