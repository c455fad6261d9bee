// Types declared in a second module, so TypeInfoTests reads metadata across a module boundary.

/// A struct from another module, with a private field tests cannot name.
public struct CrossModulePoint {
    public var x: Double
    public let label: String
    private var secret: Int8 = 7

    public init(x: Double, label: String) {
        self.x = x
        self.label = label
    }

    /// The private field's address minus the value's address: the oracle for its offset.
    public static func secretOffset() -> Int {
        var value = CrossModulePoint(x: 0, label: "")
        return withUnsafeMutablePointer(to: &value) { base in
            withUnsafeMutablePointer(to: &base.pointee.secret) { UnsafeRawPointer($0) - UnsafeRawPointer(base) }
        }
    }

    public var secretValue: Int8 { secret }
}

/// A class from another module, subclassed in the tests.
open class CrossModuleBase {
    public var identifier: Int = 1
    public final var tags: [String] = []

    public init() {}
}
