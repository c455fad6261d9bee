import BinaryInfo
import TypeLayout
import TypeLowering

/// `typeinfo object`: one object of a live process or core file, with its stored properties'
/// values.
///
/// The object's class and its fields (names, offsets, types) come from the toolchain's reflection
/// library reading the target; values are read from the target's memory by what their types make
/// them: integers, floating point and `Bool` by their size, `String` and `Array` by the standard
/// library's frozen layouts (``StandardLibraryValues``), enum cases (and `Optional`) as the
/// library decodes them, structs and tuples by their lowered children, class references as an
/// address and a dynamic type (followed `depth` levels). What is not read is
/// ``ObjectValue/unknown(_:)`` with the reason.
public enum LiveObjectReader {
    /// The most array elements shown.
    public static let elementLimit = 8
    /// The most levels of references followed: a longer chain is best read again from an object
    /// further down it.
    public static let maximumDepth = 64

    /// Reads the object at `address`, following references `depth` levels deep (at most
    /// ``maximumDepth``), each object shown once (a reference to one already shown is
    /// ``ObjectValue/alreadyShown(_:type:)``) and at most ``ObjectReport/objectLimit`` objects.
    /// What cannot be read or typed is ``ObjectValue/unknown(_:)`` with the reason: one part that
    /// cannot be read never fails the whole report.
    ///
    /// - Throws: ``LiveReadingError/notAnObject(target:address:)`` when no Swift object starts
    ///   there, and what else makes the target unreadable.
    public static func object(at address: UInt64, depth: Int, _ options: LiveTargetOptions) throws(LiveReadingError) -> ObjectReport {
        try options.whilePaused { _ throws(LiveReadingError) in
            let inspector = try options.openInspector()
            let walk = ObjectWalk(inspector: inspector)
            let metadata: UInt64
            do throws(BinaryInfoError) {
                metadata = try inspector.memory.read(UInt64.self, at: address, what: "the object's first word")
            } catch {
                throw .target(error)
            }
            guard inspector.classMetadata(at: metadata) != nil else {
                throw .notAnObject(target: options.target.description, address: address)
            }
            // Each pass builds the whole report from what is known and notes what it still needs
            // from the library; the needs of a pass are asked in one batch.
            let depth = min(max(depth, 0), maximumDepth)
            for round in 0...ObjectWalk.maximumRounds {
                walk.beginPass(final: round == ObjectWalk.maximumRounds)
                let report = try walk.object(at: address, depth: depth)
                if walk.needs.isEmpty, var report {
                    report.unfollowedReferences = walk.unfollowed
                    return report
                }
                do throws(TypeLoweringError) {
                    try walk.answerNeeds()
                } catch {
                    throw .lowering(error)
                }
            }
            // The final pass takes every unanswered question as unknown, so it always reports.
            throw .lowering(.protocolViolation(detail: "the object's final pass still had questions"))
        }
    }
}
