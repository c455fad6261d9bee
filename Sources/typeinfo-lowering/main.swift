// The lowering worker: see LoweringWorker in TypeLowering. Started by the typeinfo process, never by hand.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import TypeLowering

exit(LoweringWorker.run())
