// Server messages in the PWA's five languages, chosen from Accept-Language (the PWA sends its
// current language). Chinese is the product's default language.
export type Locale = 'zh-CN' | 'en-US' | 'vi-VN' | 'th-TH' | 'id-ID';

const catalogue = {
  ok: {
    'zh-CN': '操作成功',
    'en-US': 'Done',
    'vi-VN': 'Thành công',
    'th-TH': 'สำเร็จ',
    'id-ID': 'Berhasil',
  },
  invalid_request: {
    'zh-CN': '请求参数有误',
    'en-US': 'Some fields are not valid',
    'vi-VN': 'Một số trường không hợp lệ',
    'th-TH': 'ข้อมูลบางช่องไม่ถูกต้อง',
    'id-ID': 'Beberapa kolom tidak valid',
  },
  invalid_json: {
    'zh-CN': '请求内容不是有效的 JSON',
    'en-US': 'The request body is not valid JSON',
    'vi-VN': 'Nội dung yêu cầu không phải JSON hợp lệ',
    'th-TH': 'เนื้อหาคำขอไม่ใช่ JSON ที่ถูกต้อง',
    'id-ID': 'Isi permintaan bukan JSON yang valid',
  },
  unauthorized: {
    'zh-CN': '登录已过期，请重新登录',
    'en-US': 'Login expired, please log in again',
    'vi-VN': 'Phiên đăng nhập đã hết hạn, vui lòng đăng nhập lại',
    'th-TH': 'การเข้าสู่ระบบหมดอายุ กรุณาเข้าสู่ระบบอีกครั้ง',
    'id-ID': 'Sesi login telah berakhir, silakan login kembali',
  },
  invalid_credentials: {
    'zh-CN': '登录失败，请检查账号和密码',
    'en-US': 'Login failed, check your credentials',
    'vi-VN': 'Đăng nhập thất bại, vui lòng kiểm tra thông tin đăng nhập',
    'th-TH': 'เข้าสู่ระบบไม่สำเร็จ กรุณาตรวจสอบข้อมูลเข้าสู่ระบบ',
    'id-ID': 'Login gagal, periksa kredensial Anda',
  },
  account_disabled: {
    'zh-CN': '账号已停用，请联系管理员',
    'en-US': 'This account is disabled, please contact an administrator',
    'vi-VN': 'Tài khoản đã bị vô hiệu hóa, vui lòng liên hệ quản trị viên',
    'th-TH': 'บัญชีนี้ถูกปิดใช้งาน กรุณาติดต่อผู้ดูแลระบบ',
    'id-ID': 'Akun ini dinonaktifkan, silakan hubungi administrator',
  },
  forbidden: {
    'zh-CN': '没有权限',
    'en-US': 'No permission',
    'vi-VN': 'Không có quyền',
    'th-TH': 'ไม่มีสิทธิ์',
    'id-ID': 'Tidak ada izin',
  },
  not_found: {
    'zh-CN': '请求的资源不存在',
    'en-US': 'Resource not found',
    'vi-VN': 'Không tìm thấy tài nguyên',
    'th-TH': 'ไม่พบทรัพยากร',
    'id-ID': 'Sumber daya tidak ditemukan',
  },
  payload_too_large: {
    'zh-CN': '请求内容过大',
    'en-US': 'The request is too large',
    'vi-VN': 'Yêu cầu quá lớn',
    'th-TH': 'คำขอมีขนาดใหญ่เกินไป',
    'id-ID': 'Permintaan terlalu besar',
  },
  unsupported_media_type: {
    'zh-CN': '不支持的内容类型',
    'en-US': 'Unsupported content type',
    'vi-VN': 'Loại nội dung không được hỗ trợ',
    'th-TH': 'ไม่รองรับประเภทเนื้อหานี้',
    'id-ID': 'Jenis konten tidak didukung',
  },
  too_many_requests: {
    'zh-CN': '尝试次数过多，请 {seconds} 秒后再试',
    'en-US': 'Too many attempts, please try again in {seconds} s',
    'vi-VN': 'Quá nhiều lần thử, vui lòng thử lại sau {seconds} giây',
    'th-TH': 'ลองหลายครั้งเกินไป กรุณาลองใหม่ใน {seconds} วินาที',
    'id-ID': 'Terlalu banyak percobaan, coba lagi dalam {seconds} detik',
  },
  internal_error: {
    'zh-CN': '服务器内部错误',
    'en-US': 'Internal server error',
    'vi-VN': 'Lỗi máy chủ nội bộ',
    'th-TH': 'เซิร์ฟเวอร์ขัดข้อง',
    'id-ID': 'Kesalahan server internal',
  },
  code_sent: {
    'zh-CN': '验证码已发送',
    'en-US': 'Verification code sent',
    'vi-VN': 'Đã gửi mã xác minh',
    'th-TH': 'ส่งรหัสยืนยันแล้ว',
    'id-ID': 'Kode verifikasi terkirim',
  },
  code_send_failed: {
    'zh-CN': '验证码发送失败',
    'en-US': 'Failed to send verification code',
    'vi-VN': 'Gửi mã xác minh thất bại',
    'th-TH': 'ส่งรหัสยืนยันไม่สำเร็จ',
    'id-ID': 'Gagal mengirim kode verifikasi',
  },
  code_invalid: {
    'zh-CN': '验证码错误或已过期',
    'en-US': 'The verification code is wrong or has expired',
    'vi-VN': 'Mã xác minh sai hoặc đã hết hạn',
    'th-TH': 'รหัสยืนยันไม่ถูกต้องหรือหมดอายุแล้ว',
    'id-ID': 'Kode verifikasi salah atau sudah kedaluwarsa',
  },
  code_resend_too_soon: {
    'zh-CN': '发送过于频繁，请 {seconds} 秒后再试',
    'en-US': 'Please wait {seconds} s before requesting another code',
    'vi-VN': 'Vui lòng đợi {seconds} giây trước khi yêu cầu mã mới',
    'th-TH': 'กรุณารอ {seconds} วินาทีก่อนขอรหัสใหม่',
    'id-ID': 'Harap tunggu {seconds} detik sebelum meminta kode baru',
  },
  old_password_wrong: {
    'zh-CN': '原密码不正确',
    'en-US': 'The current password is not correct',
    'vi-VN': 'Mật khẩu hiện tại không đúng',
    'th-TH': 'รหัสผ่านปัจจุบันไม่ถูกต้อง',
    'id-ID': 'Kata sandi saat ini salah',
  },
  password_changed: {
    'zh-CN': '密码已修改',
    'en-US': 'Password changed',
    'vi-VN': 'Đã đổi mật khẩu',
    'th-TH': 'เปลี่ยนรหัสผ่านแล้ว',
    'id-ID': 'Kata sandi diubah',
  },
  logged_out: {
    'zh-CN': '已退出登录',
    'en-US': 'Logged out',
    'vi-VN': 'Đã đăng xuất',
    'th-TH': 'ออกจากระบบแล้ว',
    'id-ID': 'Berhasil keluar',
  },
  account_exists: {
    'zh-CN': '账号、微信账号或手机号已被使用',
    'en-US': 'The account, WeChat account or phone number is already in use',
    'vi-VN': 'Tài khoản, tài khoản WeChat hoặc số điện thoại đã được sử dụng',
    'th-TH': 'บัญชี บัญชี WeChat หรือหมายเลขโทรศัพท์นี้ถูกใช้แล้ว',
    'id-ID': 'Akun, akun WeChat, atau nomor telepon sudah digunakan',
  },
  last_admin: {
    'zh-CN': '不能删除、停用或降级最后一位管理员',
    'en-US': 'The last administrator cannot be deleted, disabled or demoted',
    'vi-VN': 'Không thể xóa, vô hiệu hóa hoặc hạ cấp quản trị viên cuối cùng',
    'th-TH': 'ไม่สามารถลบ ปิดใช้งาน หรือลดระดับผู้ดูแลระบบคนสุดท้ายได้',
    'id-ID': 'Administrator terakhir tidak dapat dihapus, dinonaktifkan, atau diturunkan',
  },
  self_change: {
    'zh-CN': '不能删除、停用或降级自己的账号',
    'en-US': 'You cannot delete, disable or demote your own account',
    'vi-VN': 'Bạn không thể xóa, vô hiệu hóa hoặc hạ cấp tài khoản của chính mình',
    'th-TH': 'คุณไม่สามารถลบ ปิดใช้งาน หรือลดระดับบัญชีของตัวเองได้',
    'id-ID': 'Anda tidak dapat menghapus, menonaktifkan, atau menurunkan akun Anda sendiri',
  },
  prompt_exists: {
    'zh-CN': '该类型的提示词已存在，请直接编辑',
    'en-US': 'A prompt of this type already exists; edit it instead',
    'vi-VN': 'Lời nhắc loại này đã tồn tại, vui lòng chỉnh sửa lời nhắc đó',
    'th-TH': 'มีพรอมต์ประเภทนี้อยู่แล้ว กรุณาแก้ไขพรอมต์เดิมแทน',
    'id-ID': 'Prompt untuk jenis ini sudah ada; silakan edit prompt tersebut',
  },
  prompt_not_found: {
    'zh-CN': '该类型的提示词不存在',
    'en-US': 'There is no prompt of this type',
    'vi-VN': 'Không có lời nhắc thuộc loại này',
    'th-TH': 'ไม่มีพรอมต์ประเภทนี้',
    'id-ID': 'Tidak ada prompt untuk jenis ini',
  },
  prompt_saved: {
    'zh-CN': '提示词已保存',
    'en-US': 'Prompt saved',
    'vi-VN': 'Đã lưu lời nhắc',
    'th-TH': 'บันทึกพรอมต์แล้ว',
    'id-ID': 'Prompt disimpan',
  },
  prompt_deleted: {
    'zh-CN': '提示词已删除',
    'en-US': 'Prompt deleted',
    'vi-VN': 'Đã xóa lời nhắc',
    'th-TH': 'ลบพรอมต์แล้ว',
    'id-ID': 'Prompt dihapus',
  },
  idempotency_key_mismatch: {
    'zh-CN': '该幂等键已用于另一个请求',
    'en-US': 'This idempotency key was already used for a different request',
    'vi-VN': 'Khóa idempotency này đã được dùng cho một yêu cầu khác',
    'th-TH': 'คีย์ idempotency นี้ถูกใช้กับคำขออื่นแล้ว',
    'id-ID': 'Kunci idempotensi ini sudah dipakai untuk permintaan lain',
  },
  idempotency_in_progress: {
    'zh-CN': '相同的请求正在处理中，请稍后重试',
    'en-US': 'The same request is still being processed, please retry shortly',
    'vi-VN': 'Yêu cầu giống hệt đang được xử lý, vui lòng thử lại sau giây lát',
    'th-TH': 'คำขอเดียวกันกำลังดำเนินการอยู่ กรุณาลองใหม่อีกครั้งในไม่ช้า',
    'id-ID': 'Permintaan yang sama sedang diproses, coba lagi sebentar lagi',
  },
} as const satisfies Record<string, Record<Locale, string>>;

export type MessageKey = keyof typeof catalogue;

export const LOCALES: readonly Locale[] = ['zh-CN', 'en-US', 'vi-VN', 'th-TH', 'id-ID'];

/** Picks the first supported language of an Accept-Language header; Chinese when none matches. */
export function localeFrom(acceptLanguage: string | undefined): Locale {
  const wanted = (acceptLanguage ?? '')
    .split(',')
    .map((part) => part.split(';')[0]?.trim().toLowerCase() ?? '')
    .filter(Boolean);
  for (const tag of wanted) {
    const prefix = tag.slice(0, 2);
    const match = LOCALES.find((l) => l.slice(0, 2).toLowerCase() === prefix);
    if (match) return match;
  }
  return 'zh-CN';
}

export function message(key: MessageKey, locale: Locale, vars: Record<string, string | number> = {}): string {
  const text: string = catalogue[key][locale];
  return text.replace(/\{(\w+)\}/g, (_, name: string) => String(vars[name] ?? `{${name}}`));
}

export const messageKeys = Object.keys(catalogue) as MessageKey[];
export const rawCatalogue: Record<MessageKey, Record<Locale, string>> = catalogue;
