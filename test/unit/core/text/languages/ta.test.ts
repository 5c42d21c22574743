// Tamil (ta-IN). CLDR's ta rules are not used for compounds: they read them word by word (இருபது மூன்று for 23,
// ஒன்று ஆயிரம் for 1000) and misspell 400 (நாநூறூ) and 800 (எண்நூறு); those fixes are pinned below. Sources:
// [TN] Tamil Nadu Std III mathematics textbook (tnschools.gov.in), as transcribed in Humanizer's ta tests: combining
//   forms இருபத்து, நூற்று, ஆயிரத்து, லட்சத்து, கோடியே; ஆயிரம் for 1000; இரண்டாயிரம்; ஒரு லட்சம், ஒரு கோடி.
// [Nannul] Nannūl sūtra 164 (உயிர்வரின் உக்குறள் மெய்விட்டோடும்): before a vowel the final u drops and the vowel
//   fuses (இருபத்தொன்று, நூற்றொன்று, நூற்றிருபது); ஒன்று → ஒரு / ஓர் before nouns and ஆயிரம்.
// [CLDR] CLDR ta: 0-19, tens, 100-700, 900, புள்ளி, ordinal -ஆவது; [CLDR-cal] CLDR 48 ta months and dayPeriods.
// [TRAI] TRAI National Numbering Plan: 10-digit mobile numbers, +91.  [Raaga] digit grouping rules in docs/api.md.

// [TNTB] Tamil Nadu Textbook Corporation, கணக்கு: கூட்டல், கழித்தல், பெருக்கல், வகுத்தல், சமம்; மூன்றில் ஒன்று.
// [Lehmann] Thomas Lehmann, A Grammar of Modern Tamil (1993): அரை, கால், முக்கால்; ஒன்றரை, இரண்டே கால்.
// [IndiaPost] India Post PIN codes (six digits). [IR] Indian Railways: 10-digit PNR, 5-digit train numbers read digit by digit.
// [IATA] flight designators (6E 2134). [RBI] IFSC and masked cards. [NPCI] UPI ids. [MoRTH] registration marks.
// [IEC] IEC 80000-13 units (GB, Mbps). [Raaga] letter-digit codes spelled, a word keeps its number (COVID-19).
// [Dinamani/Hindu Tamil] Tamil match reports: `4 விக்கெட் இழப்புக்கு 273 ரன்கள்` (wickets first).
import { describeTable } from './table.js';

describeTable('ta-IN', [
  // Cardinals below 1000 [CLDR units; TN combining forms; Nannul sandhi].
  ['0', 'பூஜ்யம்'],
  ['15', 'பதினைந்து'],
  ['21', 'இருபத்தொன்று'],
  ['23', 'இருபத்து மூன்று'],
  ['45', 'நாற்பத்தைந்து'],
  ['99', 'தொண்ணூற்றொன்பது'],
  ['100', 'நூறு'],
  ['101', 'நூற்றொன்று'],
  ['123', 'நூற்றிருபத்து மூன்று'],
  // CLDR's 400 and 800 are misspelt (நாநூறூ, எண்நூறு): pinned to நானூறு, எண்ணூறு.
  ['400', 'நானூறு'],
  ['800', 'எண்ணூறு'],
  ['999', 'தொள்ளாயிரத்து தொண்ணூற்றொன்பது'],
  // Thousands, lakhs, crores [TN]: joined multipliers, not ஒன்று ஆயிரம்.
  ['1000', 'ஆயிரம்'],
  ['1234', 'ஆயிரத்து இருநூற்று முப்பத்து நான்கு'],
  ['2000', 'இரண்டாயிரம்'],
  ['21000', 'இருபத்தோராயிரம்'],
  ['1,25,000', 'ஒரு லட்சத்து இருபத்தைந்தாயிரம்'],
  ['125000', 'ஒரு லட்சத்து இருபத்தைந்தாயிரம்'],
  ['12,34,56,789', 'பன்னிரண்டு கோடியே முப்பத்து நான்கு லட்சத்து ஐம்பத்தாறாயிரத்து எழுநூற்றெண்பத்தொன்பது'],
  ['1,00,00,000', 'ஒரு கோடி'],
  // Indian digits [CLDR].
  ['௧௨௩', 'நூற்றிருபத்து மூன்று'],
  // Decimals, negatives, ranges, percentages [CLDR புள்ளி and எதிர்ம; X முதல் Y வரை; சதவீதம்].
  ['3.14', 'மூன்று புள்ளி ஒன்று நான்கு'],
  ['-25', 'எதிர்ம இருபத்தைந்து'],
  ['10-15', 'பத்து முதல் பதினைந்து வரை'],
  ['10-15%', 'பத்து முதல் பதினைந்து சதவீதம் வரை'],
  ['50%', 'ஐம்பது சதவீதம்'],
  // Ordinals [CLDR -ஆவது with Nannul sandhi; adjectival -ஆம்].
  ['1வது', 'முதலாவது'],
  ['21வது', 'இருபத்தொன்றாவது'],
  ['2ஆம்', 'இரண்டாம்'],
  // Money: ரூபாய் then பைசா; one is ஒரு before a noun [Nannul].
  ['₹1,250.50', 'ஆயிரத்து இருநூற்றைம்பது ரூபாய் ஐம்பது பைசா'],
  ['Rs. 500', 'ஐநூறு ரூபாய்'],
  ['INR 2 lakh', 'இரண்டு லட்சம் ரூபாய்'],
  ['500/-', 'ஐநூறு ரூபாய்'],
  ['₹1', 'ஒரு ரூபாய்'],
  ['₹21', 'இருபத்தொரு ரூபாய்'],
  // Dates [CLDR-cal months; TN numbers].
  ['21/11/2026', 'இருபத்தொன்று நவம்பர் இரண்டாயிரத்து இருபத்தாறு'],
  ['21-11-2026', 'இருபத்தொன்று நவம்பர் இரண்டாயிரத்து இருபத்தாறு'],
  ['21 Nov 2026', 'இருபத்தொன்று நவம்பர் இரண்டாயிரத்து இருபத்தாறு'],
  ['2026-11-21', 'இருபத்தொன்று நவம்பர் இரண்டாயிரத்து இருபத்தாறு'],
  ['15/08/1947', 'பதினைந்து ஆகஸ்ட் ஆயிரத்து தொள்ளாயிரத்து நாற்பத்தேழு'],
  // Times: N மணி M நிமிடம் [CLDR-cal day periods: காலை 5-12, நண்பகல் 12, மதியம் 13, பிற்பகல் 14-16, மாலை 16-18].
  ['10:30', 'பத்து மணி முப்பது நிமிடம்'],
  ['10:30 AM', 'காலை பத்து மணி முப்பது நிமிடம்'],
  ['5 PM', 'மாலை ஐந்து மணி'],
  ['1:00 PM', 'மதியம் ஒரு மணி'],
  // Phone numbers [TRAI; Raaga grouping].
  ['+91 98765 43210', 'பிளஸ் ஒன்பது ஒன்று, ஒன்பது எட்டு ஏழு ஆறு ஐந்து, நான்கு மூன்று இரண்டு ஒன்று பூஜ்யம்'],
  ['9876543210', 'ஒன்பது எட்டு ஏழு ஆறு ஐந்து, நான்கு மூன்று இரண்டு ஒன்று பூஜ்யம்'],
  // OTPs and PINs [Raaga grouping; CLDR digit names].
  ['உங்கள் OTP 482913', 'உங்கள் OTP நான்கு எட்டு இரண்டு, ஒன்பது ஒன்று மூன்று'],
  ['PIN 4821', 'PIN நான்கு எட்டு இரண்டு ஒன்று'],
  // Abbreviations, units, symbols, addresses.
  ['Dr. Kumar', 'டாக்டர் Kumar'],
  ['5 km', 'ஐந்து கிலோமீட்டர்'],
  ['A & B', 'A மற்றும் B'],
  ['help@raaga.in', 'help அட் raaga டாட் in'],
  // Identifiers digit by digit: PIN codes by cue or address, railway, airline, booking, bank, payment and vehicle ones [IndiaPost, IR, IATA, RBI, NPCI, MoRTH, Raaga]; a quantity stays one.
  ['PIN 560001', 'PIN ஐந்து ஆறு பூஜ்யம், பூஜ்யம் பூஜ்யம் ஒன்று'],
  ['பின் கோடு 600001', 'பின் கோடு ஆறு பூஜ்யம் பூஜ்யம், பூஜ்யம் பூஜ்யம் ஒன்று'],
  ['அண்ணா சாலை, சென்னை 600002', 'அண்ணா சாலை, சென்னை ஆறு பூஜ்யம் பூஜ்யம், பூஜ்யம் பூஜ்யம் இரண்டு'],
  ['மொத்தம் 250001 பேர்.', 'மொத்தம் இரண்டு லட்சத்து ஐம்பதாயிரத்து ஒரு பேர்.'],
  ['PNR 4521873690', 'PNR நான்கு ஐந்து இரண்டு ஒன்று எட்டு, ஏழு மூன்று ஆறு ஒன்பது பூஜ்யம்'],
  ['ரயில் எண் 12951', 'ரயில் எண் ஒன்று இரண்டு ஒன்பது, ஐந்து ஒன்று'],
  ['Flight 6E-2134', 'Flight ஆறு E, இரண்டு ஒன்று மூன்று நான்கு'],
  ['Booking ID: 4521', 'Booking ID: நான்கு ஐந்து இரண்டு ஒன்று'],
  ['4521-873', 'நான்கு ஐந்து இரண்டு ஒன்று, எட்டு ஏழு மூன்று'],
  ['IFSC HDFC0001234', 'IFSC H D F C பூஜ்யம் பூஜ்யம் பூஜ்யம் ஒன்று, இரண்டு மூன்று நான்கு'],
  ['ramesh@okaxis', 'ramesh அட் okaxis'],
  ['XXXX4321', 'நான்கு மூன்று இரண்டு ஒன்று'],
  ['MH 12 AB 1234', 'M H, ஒன்று இரண்டு, A B, ஒன்று இரண்டு மூன்று நான்கு'],
  ['AB12CD34', 'A B ஒன்று இரண்டு C D மூன்று நான்கு'],
  ['COVID-19', 'COVID பத்தொன்பது'],
  // Fractions and arithmetic as the language says them; data and speed units [IEC].
  ['½ கிலோ', 'அரை கிலோ'],
  ['¾', 'முக்கால்'],
  ['1½', 'ஒன்றரை'],
  ['2½', 'இரண்டரை'],
  ['3½', 'மூன்றரை'],
  ['100 Mbps', 'நூறு எம்பிபிஎஸ்'],
  ['2 GB', 'இரண்டு ஜிபி'],
  ['2¼', 'இரண்டே கால்'],
  ['4¾', 'நான்கே முக்கால்'],
  ['5 + 3 = 8', 'ஐந்து கூட்டல் மூன்று சமம் எட்டு'],
  ['12 × 4 = 48', 'பன்னிரண்டு பெருக்கல் நான்கு சமம் நாற்பத்தெட்டு'],
  ['1/3', 'மூன்றில் ஒன்று'],
  // A cricket score as the language's match reports write it.
  ['இந்தியா 50 ஓவர்களில் 287/4', 'இந்தியா ஐம்பது ஓவர்களில் நான்கு விக்கெட் இழப்புக்கு இருநூற்றெண்பத்தேழு ரன்கள்'],
]);
