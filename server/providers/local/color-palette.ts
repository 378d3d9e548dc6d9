// A small palette of named colours, in the five languages of the product: a measured colour is
// called by its nearest entry (CIEDE2000). Fabric trade names (navy, khaki, camel, burgundy) where
// designers use them.
import type { Language } from '../capabilities.js';
import { deltaE2000, hexToRgb, rgbToLab, type Lab, type Rgb } from './color-space.js';

export interface NamedColor {
  id: string;
  hex: string;
  names: Record<Language, string>;
}

export const NAMED_COLORS: readonly NamedColor[] = [
  { id: 'black', hex: '#111111', names: { 'zh-CN': '黑色', 'en-US': 'black', 'vi-VN': 'đen', 'th-TH': 'สีดำ', 'id-ID': 'hitam' } },
  { id: 'charcoal', hex: '#3a3f44', names: { 'zh-CN': '炭灰色', 'en-US': 'charcoal', 'vi-VN': 'xám than', 'th-TH': 'สีเทาถ่าน', 'id-ID': 'abu-abu arang' } },
  { id: 'grey', hex: '#808080', names: { 'zh-CN': '灰色', 'en-US': 'grey', 'vi-VN': 'xám', 'th-TH': 'สีเทา', 'id-ID': 'abu-abu' } },
  { id: 'light-grey', hex: '#c4c4c4', names: { 'zh-CN': '浅灰色', 'en-US': 'light grey', 'vi-VN': 'xám nhạt', 'th-TH': 'สีเทาอ่อน', 'id-ID': 'abu-abu muda' } },
  { id: 'white', hex: '#ffffff', names: { 'zh-CN': '白色', 'en-US': 'white', 'vi-VN': 'trắng', 'th-TH': 'สีขาว', 'id-ID': 'putih' } },
  { id: 'cream', hex: '#f3ead2', names: { 'zh-CN': '米白色', 'en-US': 'cream', 'vi-VN': 'trắng kem', 'th-TH': 'สีครีม', 'id-ID': 'krem' } },
  { id: 'beige', hex: '#d9c4a3', names: { 'zh-CN': '米色', 'en-US': 'beige', 'vi-VN': 'be', 'th-TH': 'สีเบจ', 'id-ID': 'beige' } },
  { id: 'khaki', hex: '#b5a27a', names: { 'zh-CN': '卡其色', 'en-US': 'khaki', 'vi-VN': 'kaki', 'th-TH': 'สีกากี', 'id-ID': 'khaki' } },
  { id: 'camel', hex: '#b98a56', names: { 'zh-CN': '驼色', 'en-US': 'camel', 'vi-VN': 'nâu lạc đà', 'th-TH': 'สีอูฐ', 'id-ID': 'cokelat unta' } },
  { id: 'brown', hex: '#6e4127', names: { 'zh-CN': '棕色', 'en-US': 'brown', 'vi-VN': 'nâu', 'th-TH': 'สีน้ำตาล', 'id-ID': 'cokelat' } },
  { id: 'burgundy', hex: '#7a1f2e', names: { 'zh-CN': '酒红色', 'en-US': 'burgundy', 'vi-VN': 'đỏ rượu vang', 'th-TH': 'สีแดงเบอร์กันดี', 'id-ID': 'merah marun' } },
  { id: 'red', hex: '#e02424', names: { 'zh-CN': '红色', 'en-US': 'red', 'vi-VN': 'đỏ', 'th-TH': 'สีแดง', 'id-ID': 'merah' } },
  { id: 'coral', hex: '#f27b68', names: { 'zh-CN': '珊瑚色', 'en-US': 'coral', 'vi-VN': 'hồng san hô', 'th-TH': 'สีปะการัง', 'id-ID': 'koral' } },
  { id: 'orange', hex: '#f08a24', names: { 'zh-CN': '橙色', 'en-US': 'orange', 'vi-VN': 'cam', 'th-TH': 'สีส้ม', 'id-ID': 'oranye' } },
  { id: 'mustard', hex: '#cfa22a', names: { 'zh-CN': '芥末黄', 'en-US': 'mustard', 'vi-VN': 'vàng mù tạt', 'th-TH': 'สีเหลืองมัสตาร์ด', 'id-ID': 'kuning mustard' } },
  { id: 'yellow', hex: '#f6da2a', names: { 'zh-CN': '黄色', 'en-US': 'yellow', 'vi-VN': 'vàng', 'th-TH': 'สีเหลือง', 'id-ID': 'kuning' } },
  { id: 'olive', hex: '#6f7a35', names: { 'zh-CN': '橄榄绿', 'en-US': 'olive', 'vi-VN': 'xanh ô liu', 'th-TH': 'สีเขียวมะกอก', 'id-ID': 'hijau zaitun' } },
  { id: 'green', hex: '#2f9a46', names: { 'zh-CN': '绿色', 'en-US': 'green', 'vi-VN': 'xanh lá', 'th-TH': 'สีเขียว', 'id-ID': 'hijau' } },
  { id: 'dark-green', hex: '#1f4a30', names: { 'zh-CN': '墨绿色', 'en-US': 'dark green', 'vi-VN': 'xanh rêu', 'th-TH': 'สีเขียวเข้ม', 'id-ID': 'hijau tua' } },
  { id: 'mint', hex: '#a6dcc0', names: { 'zh-CN': '薄荷绿', 'en-US': 'mint', 'vi-VN': 'xanh bạc hà', 'th-TH': 'สีเขียวมินต์', 'id-ID': 'hijau mint' } },
  { id: 'teal', hex: '#1b7f80', names: { 'zh-CN': '蓝绿色', 'en-US': 'teal', 'vi-VN': 'xanh cổ vịt', 'th-TH': 'สีเขียวหัวเป็ด', 'id-ID': 'hijau kebiruan' } },
  { id: 'sky-blue', hex: '#8cc8ea', names: { 'zh-CN': '天蓝色', 'en-US': 'sky blue', 'vi-VN': 'xanh da trời', 'th-TH': 'สีฟ้า', 'id-ID': 'biru langit' } },
  { id: 'blue', hex: '#2457c5', names: { 'zh-CN': '蓝色', 'en-US': 'blue', 'vi-VN': 'xanh dương', 'th-TH': 'สีน้ำเงิน', 'id-ID': 'biru' } },
  { id: 'royal-blue', hex: '#2a40d8', names: { 'zh-CN': '宝蓝色', 'en-US': 'royal blue', 'vi-VN': 'xanh hoàng gia', 'th-TH': 'สีน้ำเงินสด', 'id-ID': 'biru royal' } },
  { id: 'navy', hex: '#1c2848', names: { 'zh-CN': '藏青色', 'en-US': 'navy', 'vi-VN': 'xanh navy', 'th-TH': 'สีกรมท่า', 'id-ID': 'biru dongker' } },
  { id: 'purple', hex: '#6b3a96', names: { 'zh-CN': '紫色', 'en-US': 'purple', 'vi-VN': 'tím', 'th-TH': 'สีม่วง', 'id-ID': 'ungu' } },
  { id: 'lavender', hex: '#b9a7db', names: { 'zh-CN': '薰衣草紫', 'en-US': 'lavender', 'vi-VN': 'tím oải hương', 'th-TH': 'สีลาเวนเดอร์', 'id-ID': 'ungu lavender' } },
  { id: 'pink', hex: '#f4a7c0', names: { 'zh-CN': '粉色', 'en-US': 'pink', 'vi-VN': 'hồng', 'th-TH': 'สีชมพู', 'id-ID': 'merah muda' } },
  { id: 'magenta', hex: '#d02a80', names: { 'zh-CN': '玫红色', 'en-US': 'magenta', 'vi-VN': 'hồng cánh sen', 'th-TH': 'สีบานเย็น', 'id-ID': 'magenta' } },
];

const PALETTE_LAB: readonly { color: NamedColor; lab: Lab }[] = NAMED_COLORS.map((color) => {
  const [r, g, b] = hexToRgb(color.hex);
  return { color, lab: rgbToLab(r, g, b) };
});

export function nearestNamedColor(rgb: Rgb): NamedColor {
  const lab = rgbToLab(rgb[0], rgb[1], rgb[2]);
  let best = PALETTE_LAB[0];
  let bestDistance = Infinity;
  for (const entry of PALETTE_LAB) {
    const d = deltaE2000(lab, entry.lab);
    if (d < bestDistance) {
      bestDistance = d;
      best = entry;
    }
  }
  if (!best) throw new Error('empty palette');
  return best.color;
}

export function colorName(rgb: Rgb, language: Language): string {
  return nearestNamedColor(rgb).names[language];
}
