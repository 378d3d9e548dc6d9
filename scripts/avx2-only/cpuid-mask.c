// Preloaded into a benchmark's processes (LD_PRELOAD) so that they see the CPU without AVX-512:
// onnxruntime, V8 and the reference binary pick their kernels from the cpuid instruction, so an
// AVX-512 machine then runs the AVX2 code an AVX2-only server runs. Linux's cpuid faulting
// (arch_prctl ARCH_SET_CPUID, flag cpuid_fault) makes every cpuid raise SIGSEGV; the handler runs
// the real instruction, clears the AVX-512 (and AVX-VNNI) bits and steps past it. The setting
// passes to threads and forks, and execve resets it, so every new program preloads this again.
// A program's own SIGSEGV handler (V8's WebAssembly bounds traps) still gets every other fault.
// Only handlers set through sigaction() are kept behind ours: glibc's signal() calls its internal
// sigaction, which a preloaded library cannot see, and would put the program's handler in our place.
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <cpuid.h>
#include <dlfcn.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
static sigaction_fn real_sigaction;
static struct sigaction theirs; /* the SIGSEGV action the program itself set */
static atomic_long traps;

/* leaf 7, sub-leaf 0: AVX512F, DQ, IFMA, PF, ER, CD, BW, VL (ebx); VBMI, VBMI2, VNNI, BITALG,
   VPOPCNTDQ (ecx); 4VNNIW, 4FMAPS, VP2INTERSECT, AMX-BF16, AVX512-FP16, AMX-TILE, AMX-INT8 (edx) */
static const unsigned EBX7 = (1u << 16) | (1u << 17) | (1u << 21) | (1u << 26) | (1u << 27) | (1u << 28) | (1u << 30) | (1u << 31);
static const unsigned ECX7 = (1u << 1) | (1u << 6) | (1u << 11) | (1u << 12) | (1u << 14);
static const unsigned EDX7 = (1u << 2) | (1u << 3) | (1u << 8) | (1u << 22) | (1u << 23) | (1u << 24) | (1u << 25);
/* leaf 7, sub-leaf 1: AVX-VNNI, AVX512-BF16 (eax) */
static const unsigned EAX7_1 = (1u << 4) | (1u << 5);

static void real_cpuid(unsigned leaf, unsigned sub, unsigned r[4]) {
  syscall(SYS_arch_prctl, ARCH_SET_CPUID, 1);
  __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
  syscall(SYS_arch_prctl, ARCH_SET_CPUID, 0);
}

static void on_segv(int sig, siginfo_t *si, void *ctx) {
  greg_t *g = ((ucontext_t *)ctx)->uc_mcontext.gregs;
  const unsigned char *ip = (const unsigned char *)g[REG_RIP];
  if (si->si_code == SI_KERNEL && ip[0] == 0x0f && ip[1] == 0xa2) {
    unsigned r[4], leaf = (unsigned)g[REG_RAX], sub = (unsigned)g[REG_RCX];
    real_cpuid(leaf, sub, r);
    if (leaf == 7 && sub == 0) {
      r[1] &= ~EBX7;
      r[2] &= ~ECX7;
      r[3] &= ~EDX7;
    } else if (leaf == 7 && sub == 1) {
      r[0] &= ~EAX7_1;
    }
    g[REG_RAX] = r[0];
    g[REG_RBX] = r[1];
    g[REG_RCX] = r[2];
    g[REG_RDX] = r[3];
    g[REG_RIP] += 2;
    atomic_fetch_add(&traps, 1);
    return;
  }
  if (theirs.sa_flags & SA_SIGINFO) {
    if (theirs.sa_sigaction) {
      theirs.sa_sigaction(sig, si, ctx);
      return;
    }
  } else if (theirs.sa_handler != SIG_DFL && theirs.sa_handler != SIG_IGN) {
    theirs.sa_handler(sig);
    return;
  }
  /* no handler of the program's: the fault re-runs under the default action and ends the process */
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  real_sigaction(SIGSEGV, &dfl, NULL);
}

/* The program's SIGSEGV handler is kept behind ours rather than in place of it. */
int sigaction(int sig, const struct sigaction *act, struct sigaction *old) {
  if (!real_sigaction) real_sigaction = (sigaction_fn)dlsym(RTLD_NEXT, "sigaction");
  if (sig != SIGSEGV) return real_sigaction(sig, act, old);
  if (old) *old = theirs;
  if (act) theirs = *act;
  return 0;
}

static void report(void) {
  if (!getenv("CPUID_MASK_REPORT")) return;
  char line[64];
  int n = snprintf(line, sizeof line, "cpuid-mask: %ld cpuid instructions answered\n", (long)atomic_load(&traps));
  if (write(2, line, (size_t)n) < 0) return;
}

__attribute__((constructor)) static void start(void) {
  real_sigaction = (sigaction_fn)dlsym(RTLD_NEXT, "sigaction");
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  real_sigaction(SIGSEGV, &sa, NULL);
  if (syscall(SYS_arch_prctl, ARCH_SET_CPUID, 0) != 0) {
    static const char msg[] = "cpuid-mask: this CPU or kernel has no cpuid faulting (flag cpuid_fault)\n";
    if (write(2, msg, sizeof msg - 1) < 0) _exit(97);
    _exit(97);
  }
  atexit(report);
}
