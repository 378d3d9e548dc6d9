// The upscale service's messages in the PWA's five languages (chosen from Accept-Language the same
// way as the main API's; Chinese when nothing matches).
import { localeFrom, type Locale } from '../../http/messages.js';

const catalogue = {
  models_listed: {
    'zh-CN': '模型列表获取成功',
    'en-US': 'Model list loaded',
    'vi-VN': 'Đã tải danh sách mô hình',
    'th-TH': 'โหลดรายการโมเดลแล้ว',
    'id-ID': 'Daftar model dimuat',
  },
  upscale_done: {
    'zh-CN': '图片放大完成',
    'en-US': 'Image upscaled',
    'vi-VN': 'Đã phóng to ảnh',
    'th-TH': 'ขยายภาพเสร็จแล้ว',
    'id-ID': 'Gambar berhasil diperbesar',
  },
  batch_done: {
    'zh-CN': '批量处理完成：成功 {succeeded} 张，失败 {failed} 张',
    'en-US': 'Batch finished: {succeeded} succeeded, {failed} failed',
    'vi-VN': 'Xử lý hàng loạt xong: {succeeded} thành công, {failed} thất bại',
    'th-TH': 'ประมวลผลเป็นชุดเสร็จแล้ว: สำเร็จ {succeeded} ไม่สำเร็จ {failed}',
    'id-ID': 'Batch selesai: {succeeded} berhasil, {failed} gagal',
  },
  job_cancelled: {
    'zh-CN': '已取消放大任务',
    'en-US': 'Upscale cancelled',
    'vi-VN': 'Đã hủy tác vụ phóng to ảnh',
    'th-TH': 'ยกเลิกงานขยายภาพแล้ว',
    'id-ID': 'Perbesar gambar dibatalkan',
  },
  missing_image: {
    'zh-CN': '请上传图片文件（字段 image）',
    'en-US': 'Please upload an image file (field "image")',
    'vi-VN': 'Vui lòng tải lên một tệp ảnh (trường "image")',
    'th-TH': 'กรุณาอัปโหลดไฟล์ภาพ (ช่อง "image")',
    'id-ID': 'Silakan unggah file gambar (kolom "image")',
  },
  not_multipart: {
    'zh-CN': '请以 multipart/form-data 格式上传',
    'en-US': 'Please send the request as multipart/form-data',
    'vi-VN': 'Vui lòng gửi yêu cầu dưới dạng multipart/form-data',
    'th-TH': 'กรุณาส่งคำขอในรูปแบบ multipart/form-data',
    'id-ID': 'Kirim permintaan sebagai multipart/form-data',
  },
  too_many_files: {
    'zh-CN': '一次最多上传 {max} 张图片',
    'en-US': 'At most {max} images per request',
    'vi-VN': 'Tối đa {max} ảnh mỗi yêu cầu',
    'th-TH': 'อัปโหลดได้สูงสุด {max} ภาพต่อคำขอ',
    'id-ID': 'Maksimal {max} gambar per permintaan',
  },
  file_too_large: {
    'zh-CN': '图片超过 {mb} MB 的大小限制',
    'en-US': 'The image is larger than {mb} MB',
    'vi-VN': 'Ảnh lớn hơn {mb} MB',
    'th-TH': 'ภาพมีขนาดใหญ่กว่า {mb} MB',
    'id-ID': 'Gambar lebih besar dari {mb} MB',
  },
  too_many_pixels: {
    'zh-CN': '图片像素过多（上限 {max} 像素），请缩小后再试',
    'en-US': 'The image has too many pixels (limit {max}); please use a smaller image',
    'vi-VN': 'Ảnh có quá nhiều điểm ảnh (giới hạn {max}); vui lòng dùng ảnh nhỏ hơn',
    'th-TH': 'ภาพมีจำนวนพิกเซลมากเกินไป (จำกัด {max}) กรุณาใช้ภาพที่เล็กลง',
    'id-ID': 'Gambar memiliki terlalu banyak piksel (batas {max}); gunakan gambar yang lebih kecil',
  },
  image_too_narrow: {
    'zh-CN': '图片太窄：每条边至少需要 {min} 像素',
    'en-US': 'The image is too narrow: each side must be at least {min} pixels',
    'vi-VN': 'Ảnh quá hẹp: mỗi cạnh phải có ít nhất {min} điểm ảnh',
    'th-TH': 'ภาพแคบเกินไป แต่ละด้านต้องมีอย่างน้อย {min} พิกเซล',
    'id-ID': 'Gambar terlalu sempit: setiap sisi harus minimal {min} piksel',
  },
  aspect_ratio_too_large: {
    'zh-CN': '图片过于细长：长边最多为短边的 {max} 倍，请裁剪后再试',
    'en-US':
      'The image is too long and thin: the longer side may be at most {max} times the shorter; please crop it',
    'vi-VN': 'Ảnh quá dài và hẹp: cạnh dài tối đa gấp {max} lần cạnh ngắn; vui lòng cắt bớt ảnh',
    'th-TH': 'ภาพยาวและแคบเกินไป ด้านยาวต้องไม่เกิน {max} เท่าของด้านสั้น กรุณาครอบตัดภาพ',
    'id-ID':
      'Gambar terlalu panjang dan sempit: sisi panjang maksimal {max} kali sisi pendek; silakan potong gambar',
  },
  unsupported_type: {
    'zh-CN': '不支持的图片格式，仅支持 JPEG、PNG、GIF、WebP',
    'en-US': 'Unsupported image type; JPEG, PNG, GIF and WebP are supported',
    'vi-VN': 'Định dạng ảnh không được hỗ trợ; chỉ hỗ trợ JPEG, PNG, GIF và WebP',
    'th-TH': 'ไม่รองรับประเภทภาพนี้ รองรับเฉพาะ JPEG, PNG, GIF และ WebP',
    'id-ID': 'Jenis gambar tidak didukung; hanya JPEG, PNG, GIF, dan WebP',
  },
  corrupt_image: {
    'zh-CN': '图片文件已损坏，无法读取',
    'en-US': 'The image file is damaged and cannot be read',
    'vi-VN': 'Tệp ảnh bị hỏng và không thể đọc',
    'th-TH': 'ไฟล์ภาพเสียหายและอ่านไม่ได้',
    'id-ID': 'File gambar rusak dan tidak dapat dibaca',
  },
  unknown_model: {
    'zh-CN': '未知的模型：{model}',
    'en-US': 'Unknown model: {model}',
    'vi-VN': 'Mô hình không xác định: {model}',
    'th-TH': 'ไม่รู้จักโมเดล: {model}',
    'id-ID': 'Model tidak dikenal: {model}',
  },
  invalid_parameter: {
    'zh-CN': '参数 {field} 无效，允许的值：{allowed}',
    'en-US': 'Invalid {field}; allowed: {allowed}',
    'vi-VN': 'Tham số {field} không hợp lệ; giá trị cho phép: {allowed}',
    'th-TH': 'พารามิเตอร์ {field} ไม่ถูกต้อง ค่าที่อนุญาต: {allowed}',
    'id-ID': 'Parameter {field} tidak valid; nilai yang diizinkan: {allowed}',
  },
  missing_model: {
    'zh-CN': '请选择模型（model_name）',
    'en-US': 'Please choose a model (model_name)',
    'vi-VN': 'Vui lòng chọn mô hình (model_name)',
    'th-TH': 'กรุณาเลือกโมเดล (model_name)',
    'id-ID': 'Silakan pilih model (model_name)',
  },
  queue_full: {
    'zh-CN': '放大服务繁忙，请 {seconds} 秒后再试',
    'en-US': 'The upscale service is busy, please try again in {seconds} s',
    'vi-VN': 'Dịch vụ phóng to ảnh đang bận, vui lòng thử lại sau {seconds} giây',
    'th-TH': 'บริการขยายภาพไม่ว่าง กรุณาลองใหม่ใน {seconds} วินาที',
    'id-ID': 'Layanan perbesar gambar sedang sibuk, coba lagi dalam {seconds} detik',
  },
  database_unavailable: {
    'zh-CN': '数据库暂时无法连接，请 {seconds} 秒后再试',
    'en-US': 'The database is briefly unavailable, please try again in {seconds} s',
    'vi-VN': 'Cơ sở dữ liệu tạm thời không khả dụng, vui lòng thử lại sau {seconds} giây',
    'th-TH': 'ฐานข้อมูลไม่พร้อมใช้งานชั่วคราว กรุณาลองใหม่ใน {seconds} วินาที',
    'id-ID': 'Basis data sementara tidak tersedia, coba lagi dalam {seconds} detik',
  },
  models_unavailable: {
    'zh-CN': '模型文件尚未就绪，服务暂时不可用',
    'en-US': 'The model files are not ready; the service is temporarily unavailable',
    'vi-VN': 'Tệp mô hình chưa sẵn sàng; dịch vụ tạm thời không khả dụng',
    'th-TH': 'ไฟล์โมเดลยังไม่พร้อม บริการไม่พร้อมใช้งานชั่วคราว',
    'id-ID': 'File model belum siap; layanan sementara tidak tersedia',
  },
  cancelled: {
    'zh-CN': '已取消',
    'en-US': 'Cancelled',
    'vi-VN': 'Đã hủy',
    'th-TH': 'ยกเลิกแล้ว',
    'id-ID': 'Dibatalkan',
  },
  link_invalid: {
    'zh-CN': '下载链接无效或已过期',
    'en-US': 'The download link is invalid or has expired',
    'vi-VN': 'Liên kết tải xuống không hợp lệ hoặc đã hết hạn',
    'th-TH': 'ลิงก์ดาวน์โหลดไม่ถูกต้องหรือหมดอายุแล้ว',
    'id-ID': 'Tautan unduhan tidak valid atau sudah kedaluwarsa',
  },
  unauthorized: {
    'zh-CN': '登录已过期，请重新登录',
    'en-US': 'Login expired, please log in again',
    'vi-VN': 'Phiên đăng nhập đã hết hạn, vui lòng đăng nhập lại',
    'th-TH': 'การเข้าสู่ระบบหมดอายุ กรุณาเข้าสู่ระบบอีกครั้ง',
    'id-ID': 'Sesi login telah berakhir, silakan login kembali',
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
  bad_request: {
    'zh-CN': '请求格式有误',
    'en-US': 'The request is malformed',
    'vi-VN': 'Yêu cầu không đúng định dạng',
    'th-TH': 'รูปแบบคำขอไม่ถูกต้อง',
    'id-ID': 'Format permintaan salah',
  },
  internal_error: {
    'zh-CN': '服务器内部错误',
    'en-US': 'Internal server error',
    'vi-VN': 'Lỗi máy chủ nội bộ',
    'th-TH': 'เซิร์ฟเวอร์ขัดข้อง',
    'id-ID': 'Kesalahan server internal',
  },
} as const satisfies Record<string, Record<Locale, string>>;

export type UpscaleMessageKey = keyof typeof catalogue;
export const upscaleMessageKeys = Object.keys(catalogue) as UpscaleMessageKey[];

export function upscaleMessage(
  key: UpscaleMessageKey,
  acceptLanguage: string | undefined,
  vars: Record<string, string | number> = {},
): string {
  const text: string = catalogue[key][localeFrom(acceptLanguage)];
  return text.replace(/\{(\w+)\}/g, (_, name: string) => String(vars[name] ?? `{${name}}`));
}
