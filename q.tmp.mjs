import { newQuickJSWASMModuleFromVariant } from 'quickjs-emscripten-core';
import variant from '@jitl/quickjs-wasmfile-release-sync';
const mod = await newQuickJSWASMModuleFromVariant(variant);
for (const kb of [64,128,256]) {
const rt=mod.newRuntime(); rt.setMaxStackSize(kb*1024); const ctx=rt.newContext();
let r=ctx.evalCode('let n=0; function f(){n++; return f()+1}; try { f() } catch(e) { [n, String(e)] }', 'Script');
console.log(kb, ctx.dump(r.value ?? r.error));
r=ctx.evalCode('let m=0; function g(){m++; return [1].map(g)}; try { g() } catch(e) { [m, String(e)] }', 'Script');
console.log(kb, ctx.dump(r.value ?? r.error));
}
