// Hinglish in en-IN: romanized Hindi sentences read as a Hinglish speaker says them (numbers, money, times, dates and
// codes in Hindi words: `paanch sau rupaye`, `saadhe paanch baje`, `chaar aath do`), English sentences as English.
// Written after how Hinglish is actually written in transactional SMS and chat (bank, telecom, delivery and travel
// messages: "Aapka OTP ... hai", "Aapke account mein Rs. ... credit hue hain", "... baje"), with:
// [CLDR] CLDR 48 hi spellout for the number words, in the common romanizations (paanch, chhah, pachchees, ninyaanave).
// [McGregor] R. S. McGregor, Outline of Hindi Grammar: clock (baje, bajkar … minute; saadhe, sawa, paune, dedh,
//   dhaai for the half and quarter hours), years in hundreds (unnees sau …), fractions (aadha, dedh, dhaai, saadhe).
// [SMS] the Latin words kept as written in such messages (OTP, EMI, GB, percent, first) and the English sentences that
//   must stay English; the rule that decides: hinglish-context.ts (one unambiguous Hindi word, or two short ones).

import { describeTable } from './table.js';

describeTable(
  'en-IN',
  [
    ['Aapka OTP 482913 hai.', 'Aapka OTP chaar aath do, nau ek teen hai.'],
    ['Aapka bill ₹500 hai.', 'Aapka bill paanch sau rupaye hai.'],
    ['Aapke account mein Rs. 1,250 credit hue hain.', 'Aapke account mein ek hazaar do sau pachaas rupaye credit hue hain.'],
    ['Kal 6 baje aana.', 'Kal chhah baje aana.'],
    ['5:30 baje aa jana.', 'saadhe paanch baje aa jana.'],
    ['Meeting 10:45 baje hai.', 'Meeting paune gyaarah baje hai.'],
    ['Class 2:15 baje shuru hogi.', 'Class sawa do baje shuru hogi.'],
    ['Train 1:30 baje aayegi.', 'Train dedh baje aayegi.'],
    ['Main 1998 mein Delhi aaya tha.', 'Main unnees sau atthaanave mein Delhi aaya tha.'],
    ['Ye offer 2026 tak valid hai.', 'Ye offer do hazaar chhabbees tak valid hai.'],
    ['Aapka order 15 August ko deliver hoga.', 'Aapka order pandrah August ko deliver hoga.'],
    ['Delivery 25/12/2025 tak ho jayegi.', 'Delivery pachchees December do hazaar pachchees tak ho jayegi.'],
    ['Aapka plan 28 din ke liye hai.', 'Aapka plan atthaais din ke liye hai.'],
    ['Recharge ₹299 ka hai.', 'Recharge do sau ninyaanave rupaye ka hai.'],
    // The sentence rule the chunker uses: `Rs.` does not end a sentence, so the amount is still in a Hinglish one.
    ['Rs. 500 ka recharge hai.', 'paanch sau rupaye ka recharge hai.'],
    ['2 GB data roz milega.', 'do GB data roz milega.'],
    ['1.5 GB data bacha hai.', 'ek point paanch GB data bacha hai.'],
    ['Aapka balance ₹12.50 hai.', 'Aapka balance baarah rupaye pachaas paise hai.'],
    ['Customer care 1800 123 4567 pe call karein.', 'Customer care ek aath shunya shunya, ek do teen, chaar paanch chhah saat pe call karein.'],
    ['Aapka PNR 4521873690 confirm hai.', 'Aapka PNR chaar paanch do ek aath, saat teen chhah nau shunya confirm hai.'],
    ['Flight 6E-2134 subah 6 baje hai.', 'Flight chhah E, do ek teen chaar subah chhah baje hai.'],
    ['50% cashback milega.', 'pachaas percent cashback milega.'],
    ['10-15 minute lagenge.', 'das se pandrah minute lagenge.'],
    ['1/2 kilo cheeni le aana aur 2 kilo aata bhi.', 'aadha kilo cheeni le aana aur do kilo aata bhi.'],
    ['1½ ghante mein pahunch jayenge.', 'dedh ghante mein pahunch jayenge.'],
    ['2½ lakh ka loan hai.', 'dhaai lakh ka loan hai.'],
    ['3½ saal ho gaye.', 'saadhe teen saal ho gaye.'],
    ['India ka score 287/4 hai.', 'India ka score do sau sattaasi pe chaar hai.'],
    ['5 + 3 = 8 hota hai.', 'paanch plus teen barabar aath hota hai.'],
    ['Aapka 1st EMI 5 tarikh ko katega.', 'Aapka first EMI paanch tarikh ko katega.'],
    ['Room 302 mein aaiye.', 'Room teen sau do mein aaiye.'],
    ['Pincode 110001 hai.', 'Pincode ek ek shunya, shunya shunya ek hai.'],
    ['Pay karein ramesh@okaxis pe.', 'Pay karein ramesh at okaxis pe.'],
    ['Aapki gaadi MH 12 AB 1234 hai.', 'Aapki gaadi M H, ek do, A B, ek do teen chaar hai.'],
    ['Card XXXX4321 se ₹2,000 kate hain.', 'Card chaar teen do ek se do hazaar rupaye kate hain.'],
    ['Your order will arrive at 6 PM.', 'Your order will arrive at six PM.'],
    ['I paid ₹500 to the driver.', 'I paid five hundred rupees to the driver.'],
    ['Flight to Gaya at 5 PM.', 'Flight to Gaya at five PM.'],
    ['Abhi called at 10:30.', 'Abhi called at ten thirty.'],
    ['Aap 3 din mein 2 baar aa sakte hain.', 'Aap teen din mein do baar aa sakte hain.'],
    ['Humare paas 1,25,000 customers hain.', 'Humare paas ek lakh pachchees hazaar customers hain.'],
    ['Kul ₹2.5 lakh ka nuksaan hua.', 'Kul do lakh pachaas hazaar rupaye ka nuksaan hua.'],
    ['Yeh 20 saal purana hai.', 'Yeh bees saal purana hai.'],
    ['Sale 10 baje se 6 baje tak hai.', 'Sale das baje se chhah baje tak hai.'],
    ['Score: 156/3 after 20 overs.', 'Score: one fifty-six for three after twenty overs.'],
    ['Makaan number 12/4 hai.', 'Makaan number baarah bata chaar hai.'],
    ['Aapka OTP 4829 hai, kisi ko na batayein.', 'Aapka OTP chaar aath do nau hai, kisi ko na batayein.'],
    ['Mera number 98765 43210 hai.', 'Mera number nau aath saat chhah paanch, chaar teen do ek shunya hai.'],
  ],
  'Hinglish (en-IN)',
);
