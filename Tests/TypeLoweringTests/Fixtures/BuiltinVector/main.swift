// Compiled with -parse-stdlib: a struct with a builtin vector field after one byte, laid out by
// the compiler, and the same pair in a generic struct, laid out by the runtime from the vector's
// metadata. Prints:
//   compiler <size of Packed>           (the vector after one byte, where the compiler puts it)
//   runtime <alignment> <size of Generic<vector>>   (the vector's metadata, and the runtime's layout)
import Swift

public struct Packed {
    public var byte: Builtin.Int8
    public var vector: Builtin.Vec2xInt8
}

public struct Generic<Element> {
    public var byte: Builtin.Int8
    public var element: Element
}

func layout<T>(_: T.Type) -> (size: Int, alignment: Int) { (MemoryLayout<T>.size, MemoryLayout<T>.alignment) }

print("compiler \(layout(Packed.self).size)")
print("runtime \(layout(Builtin.Vec2xInt8.self).alignment) \(layout(Generic<Builtin.Vec2xInt8>.self).size)")
