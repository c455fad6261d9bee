extension LayoutDiff {
    /// Compares two snapshots.
    ///
    /// Types are matched by qualified name (several types with one name are matched in their
    /// snapshot order); fields by name, then leftover fields with the same offset, type and
    /// size are matched as renamed; enum cases by name.
    ///
    /// - Parameters:
    ///   - old: the recorded or older layouts.
    ///   - new: the current or newer layouts.
    public init(old: LayoutSnapshot, new: LayoutSnapshot) {
        var oldByName: [String: [TypeLayout]] = [:]
        var newByName: [String: [TypeLayout]] = [:]
        for type in old.types { oldByName[type.name, default: []].append(type) }
        for type in new.types { newByName[type.name, default: []].append(type) }
        let names = Set(oldByName.keys).union(newByName.keys).sorted()

        var changes: [LayoutChange] = []
        for name in names {
            let olds = oldByName[name] ?? []
            let news = newByName[name] ?? []
            for index in 0..<max(olds.count, news.count) {
                switch (index < olds.count ? olds[index] : nil, index < news.count ? news[index] : nil) {
                case (let before?, let after?):
                    if before != after {
                        changes += TypeComparison(old: before, new: after).run()
                    }
                case (let before?, nil):
                    changes.append(
                        LayoutChange(
                            kind: .typeRemoved, severity: .breaking, typeName: name, typeKind: before.kind,
                            detail: Self.extentText(before)
                        ))
                case (nil, let after?):
                    changes.append(
                        LayoutChange(
                            kind: .typeAdded, severity: .compatible, typeName: name, typeKind: after.kind,
                            detail: Self.extentText(after)
                        ))
                case (nil, nil):
                    break
                }
            }
        }
        self.init(
            changes: changes,
            typesCompared: names.reduce(0) { count, name in
                count + max(oldByName[name]?.count ?? 0, newByName[name]?.count ?? 0)
            })
    }

    /// Compares two sets of layouts from any reader, after normalizing both into snapshots
    /// (so facts that are not layout, such as mangled names, never show up as changes).
    ///
    /// - Parameters:
    ///   - old: the older layouts.
    ///   - new: the newer layouts.
    public init(old: [TypeLayout], new: [TypeLayout]) {
        self.init(old: LayoutSnapshot(types: old), new: LayoutSnapshot(types: new))
    }

    /// Compares the types of two layout documents.
    ///
    /// - Parameters:
    ///   - old: the older document.
    ///   - new: the newer document.
    public init(old: LayoutDocument, new: LayoutDocument) {
        self.init(old: LayoutSnapshot(document: old), new: LayoutSnapshot(document: new))
    }

    /// "size 16, stride 16" or "instance size 32" for an added or removed type.
    static func extentText(_ type: TypeLayout) -> String? {
        var parts: [String] = []
        if type.kind == .class {
            if let size = type.instanceSize { parts.append("instance size \(size)") }
        } else {
            if let size = type.size { parts.append("size \(size)") }
            if let stride = type.stride, stride != type.size { parts.append("stride \(stride)") }
        }
        let count = type.kind == .enum ? type.cases.count : type.fields.count
        let noun = type.kind == .enum ? "case" : "field"
        if count > 0 { parts.append("\(count) \(noun)\(count == 1 ? "" : "s")") }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}

/// The comparison of one type present on both sides.
private struct TypeComparison {
    let old: TypeLayout
    let new: TypeLayout
    var changes: [LayoutChange] = []

    init(old: TypeLayout, new: TypeLayout) {
        self.old = old
        self.new = new
    }

    consuming func run() -> [LayoutChange] {
        if old.kind != new.kind {
            add(.kindChanged, .breaking, from: .text(old.kind.rawValue), to: .text(new.kind.rawValue))
        }
        compare(.sizeChanged, old.size, new.size)
        compare(.alignmentChanged, old.alignment, new.alignment)
        compare(.strideChanged, old.stride, new.stride)
        compare(.instanceSizeChanged, old.instanceSize, new.instanceSize)
        compare(.instanceAlignmentChanged, old.instanceAlignment, new.instanceAlignment)
        if old.superclass != new.superclass {
            add(
                .superclassChanged, .breaking, from: LayoutValue(old.superclass), to: LayoutValue(new.superclass),
                detail: "every inherited field's storage comes from the superclass")
        }
        compareFields()
        compareCases()
        return changes
    }

    private mutating func add(
        _ kind: LayoutChangeKind, _ severity: LayoutChangeSeverity, member: String? = nil,
        from: LayoutValue? = nil, to: LayoutValue? = nil, detail: String? = nil
    ) {
        changes.append(
            LayoutChange(
                kind: kind, severity: severity, typeName: new.name, typeKind: new.kind,
                member: member, from: from, to: to, detail: detail
            ))
    }

    /// A number that changed: breaking, unless it was unknown before (then it is news, not a
    /// change). A number that became unknown is breaking: the check can no longer vouch for it.
    private mutating func compare(_ kind: LayoutChangeKind, _ before: Int?, _ after: Int?, member: String? = nil) {
        guard before != after else { return }
        let (severity, detail) = Self.classifyKnowledge(before: before == nil, after: after == nil)
        add(kind, severity, member: member, from: LayoutValue(before), to: LayoutValue(after), detail: detail)
    }

    private static func classifyKnowledge(before unknownBefore: Bool, after unknownAfter: Bool) -> (LayoutChangeSeverity, String?) {
        if unknownBefore { return (.compatible, "was unknown") }
        if unknownAfter { return (.breaking, "no longer known, so it cannot be checked") }
        return (.breaking, nil)
    }

    // MARK: Fields

    private mutating func compareFields() {
        let oldFields = old.fields
        let newFields = new.fields
        guard oldFields != newFields else { return }

        // Match by (name, occurrence), so repeated names (anonymous C members) pair in order.
        var newIndexByKey: [FieldKey: Int] = [:]
        for (index, key) in Self.keys(newFields).enumerated() { newIndexByKey[key] = index }
        var partner = [Int?](repeating: nil, count: oldFields.count)
        var newTaken = [Bool](repeating: false, count: newFields.count)
        for (index, key) in Self.keys(oldFields).enumerated() {
            if let match = newIndexByKey[key] {
                partner[index] = match
                newTaken[match] = true
            }
        }
        // Leftovers at the same place with the same type and size: renamed.
        var renamed = [Bool](repeating: false, count: oldFields.count)
        for index in oldFields.indices where partner[index] == nil {
            let field = oldFields[index]
            guard field.offset != nil else { continue }
            if let match = newFields.indices.first(where: { !newTaken[$0] && Self.sameSlot(field, newFields[$0]) }) {
                partner[index] = match
                newTaken[match] = true
                renamed[index] = true
            }
        }

        for (index, field) in oldFields.enumerated() {
            guard let match = partner[index] else {
                add(
                    .fieldRemoved, .breaking, member: field.name,
                    detail: "was \(Self.placeText(field)), \(field.type)")
                continue
            }
            let other = newFields[match]
            if renamed[index] {
                add(
                    .fieldRenamed, .compatible, member: field.name, from: .text(field.name), to: .text(other.name),
                    detail: "same storage: \(Self.placeText(field)), \(field.type)")
            } else {
                compareField(field, other)
            }
        }
        for (index, field) in newFields.enumerated() where !newTaken[index] {
            let (severity, why) = classifyAddition(field)
            add(
                .fieldAdded, severity, member: field.name, to: .text(field.type),
                detail: "\(Self.placeText(field)); \(why)")
        }

        let pairs = oldFields.indices.compactMap { index in partner[index].map { (index, $0) } }
        if !Self.isIncreasing(pairs.map(\.1)) {
            let before = pairs.map { oldFields[$0.0].name }
            let after = pairs.sorted { $0.1 < $1.1 }.map { newFields[$0.1].name }
            add(.fieldsReordered, .breaking, from: .names(before), to: .names(after))
        }
    }

    private mutating func compareField(_ before: FieldLayout, _ after: FieldLayout) {
        let name = before.name
        let fromPosition = Self.position(before)
        let toPosition = Self.position(after)
        if fromPosition != toPosition {
            let (severity, detail) = Self.classifyKnowledge(before: fromPosition == .unknown, after: toPosition == .unknown)
            add(.fieldMoved, severity, member: name, from: fromPosition, to: toPosition, detail: detail)
        }
        if before.type != after.type {
            var detail: String?
            if before.size != after.size {
                detail = "size \(LayoutValue(before.size)) -> \(LayoutValue(after.size))"
            }
            add(.fieldRetyped, .breaking, member: name, from: .text(before.type), to: .text(after.type), detail: detail)
        } else if before.size != after.size {
            compare(.fieldResized, before.size, after.size, member: name)
        } else if before.bitWidth != after.bitWidth {
            let (severity, detail) = Self.classifyKnowledge(before: before.bitWidth == nil, after: after.bitWidth == nil)
            add(
                .fieldResized, severity, member: name,
                from: before.bitWidth.map { .text("\($0) bits") } ?? .unknown,
                to: after.bitWidth.map { .text("\($0) bits") } ?? .unknown, detail: detail)
        }
        if before.ownership != after.ownership {
            add(
                .fieldOwnershipChanged, .breaking, member: name,
                from: .text(before.ownership.rawValue), to: .text(after.ownership.rawValue),
                detail: "the stored representation differs")
        }
    }

    /// An added field is compatible only when it takes bytes the old layout left unused
    /// (a hole or tail padding within the old extent) and overlaps no old field; for a union,
    /// when it fits within the old size. Otherwise something that relied on the old layout moves
    /// or grows, and the size/offset changes that follow are reported on their own lines too.
    private func classifyAddition(_ field: FieldLayout) -> (LayoutChangeSeverity, String) {
        guard let range = field.byteRange else {
            return (.breaking, "its place is unknown, so it cannot be shown to be harmless")
        }
        let extent = old.kind == .class ? old.instanceSize : (old.stride ?? old.size)
        guard let extent else { return (.breaking, "the old size is unknown") }
        guard range.upperBound <= extent else {
            return (.breaking, "it extends past the old end (\(extent) bytes)")
        }
        if old.kind == .union { return (.compatible, "within the union's old size") }
        for existing in old.fields {
            guard let used = existing.byteRange else {
                return (.breaking, "old field '\(existing.name)' has an unknown place")
            }
            if used.overlaps(range) { return (.breaking, "it takes bytes old field '\(existing.name)' used") }
        }
        return (.compatible, "in bytes the old layout left unused")
    }

    // MARK: Cases

    private mutating func compareCases() {
        let oldCases = old.cases
        let newCases = new.cases
        guard oldCases != newCases else { return }
        var newIndexByName: [String: Int] = [:]
        for (index, enumCase) in newCases.enumerated() where newIndexByName[enumCase.name] == nil {
            newIndexByName[enumCase.name] = index
        }
        var matched: [(Int, Int)] = []
        var newTaken = [Bool](repeating: false, count: newCases.count)
        for (index, enumCase) in oldCases.enumerated() {
            guard let match = newIndexByName[enumCase.name], !newTaken[match] else {
                add(
                    .caseRemoved, .breaking, member: enumCase.name, from: LayoutValue(enumCase.payloadType),
                    detail: "values with this case can no longer be represented")
                continue
            }
            newTaken[match] = true
            matched.append((index, match))
            let other = newCases[match]
            if enumCase.payloadType != other.payloadType {
                add(
                    .casePayloadChanged, .breaking, member: enumCase.name,
                    from: LayoutValue(enumCase.payloadType), to: LayoutValue(other.payloadType))
            }
            if enumCase.indirect != other.indirect {
                add(
                    .caseIndirectChanged, .breaking, member: enumCase.name,
                    from: .text(enumCase.indirect ? "indirect" : "inline"), to: .text(other.indirect ? "indirect" : "inline"),
                    detail: "the payload moves between inline storage and a box")
            }
        }
        // Cases are numbered in order, so an addition is harmless only if every old case keeps its number.
        let shifted = matched.first { $0.0 != $0.1 }.map { oldCases[$0.0].name }
        for (index, enumCase) in newCases.enumerated() where !newTaken[index] {
            if let shifted {
                add(
                    .caseAdded, .breaking, member: enumCase.name, to: LayoutValue(enumCase.payloadType),
                    detail: "case \(index); it renumbers existing cases (first: '\(shifted)')")
            } else {
                add(
                    .caseAdded, .compatible, member: enumCase.name, to: LayoutValue(enumCase.payloadType),
                    detail: "case \(index), after every existing case")
            }
        }
        if !Self.isIncreasing(matched.map(\.1)) {
            add(
                .casesReordered, .breaking, from: .names(matched.map { oldCases[$0.0].name }),
                to: .names(matched.sorted { $0.1 < $1.1 }.map { newCases[$0.1].name }),
                detail: "case numbers (tags) change")
        }
    }

    // MARK: Helpers

    private struct FieldKey: Hashable {
        var name: String
        var occurrence: Int
    }

    private static func keys(_ fields: [FieldLayout]) -> [FieldKey] {
        var seen: [String: Int] = [:]
        return fields.map { field in
            let occurrence = seen[field.name, default: 0]
            seen[field.name] = occurrence + 1
            return FieldKey(name: field.name, occurrence: occurrence)
        }
    }

    private static func sameSlot(_ lhs: FieldLayout, _ rhs: FieldLayout) -> Bool {
        lhs.offset == rhs.offset && lhs.bitOffset == rhs.bitOffset && lhs.bitWidth == rhs.bitWidth
            && lhs.type == rhs.type && lhs.size == rhs.size && lhs.ownership == rhs.ownership
    }

    /// A field's position: its offset, or `byte:bit` for a bitfield.
    static func position(_ field: FieldLayout) -> LayoutValue {
        guard let offset = field.offset else { return .unknown }
        if let bit = field.bitOffset { return .text("\(offset):\(bit)") }
        return .int(offset)
    }

    static func placeText(_ field: FieldLayout) -> String {
        var text = "offset \(position(field))"
        if let bits = field.bitWidth {
            text += ", \(bits) bits"
        } else if let size = field.size {
            text += ", size \(size)"
        }
        return text
    }

    private static func isIncreasing(_ values: [Int]) -> Bool {
        zip(values, values.dropFirst()).allSatisfy { $0 < $1 }
    }
}

extension FieldLayout {
    /// The bytes a field occupies, or `nil` when its offset or size is unknown.
    var byteRange: Range<Int>? {
        guard let offset = offset, offset >= 0 else { return nil }
        if let bits = bitWidth, bits >= 0 {
            let bitEnd = (bitOffset ?? 0).addingReportingOverflow(bits)
            guard !bitEnd.overflow, bitEnd.partialValue >= 0 else { return nil }
            let bytes = bitEnd.partialValue / 8 + (bitEnd.partialValue % 8 == 0 ? 0 : 1)
            let end = offset.addingReportingOverflow(bytes)
            return end.overflow ? nil : offset..<end.partialValue
        }
        guard let size = size, size >= 0 else { return nil }
        let end = offset.addingReportingOverflow(size)
        return end.overflow ? nil : offset..<end.partialValue
    }
}
