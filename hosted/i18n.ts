/** Hosted-page strings in the applicant's language (Portuguese, Spanish, English). */
export const STRINGS = {
  en: {
    title: 'Verify your identity',
    intro: 'You will need your ID document and about two minutes. Your photos are only used for this verification.',
    document: 'Which document will you use?',
    front: 'Photo of the document front',
    back: 'Photo of the document back (if it has one)',
    selfie: 'A selfie: your face, well lit, looking at the camera',
    submit: 'Submit',
    uploading: 'Uploading…',
    submitted: 'Thank you. Your verification was submitted; you can close this page.',
    already: 'This verification was already submitted. You can close this page.',
    needFront: 'Add a photo of the document front first.',
    failed: 'Something went wrong. Please try again.',
    invalidTitle: 'This link is not valid',
    invalidBody: 'Open the link you received again, or ask for a new one.',
    expiredTitle: 'This link has expired',
    expiredBody: 'For your security, verification links expire. Ask for a new link.',
    erasedTitle: 'This verification is no longer available',
    passport: 'Passport', national_id: 'National ID card', driving_licence: 'Driving licence', residence_permit: 'Residence permit',
  },
  es: {
    title: 'Verifica tu identidad',
    intro: 'Necesitarás tu documento de identidad y unos dos minutos. Tus fotos solo se usan para esta verificación.',
    document: '¿Qué documento usarás?',
    front: 'Foto del frente del documento',
    back: 'Foto del reverso del documento (si tiene)',
    selfie: 'Una selfie: tu cara, bien iluminada, mirando a la cámara',
    submit: 'Enviar',
    uploading: 'Subiendo…',
    submitted: 'Gracias. Tu verificación fue enviada; puedes cerrar esta página.',
    already: 'Esta verificación ya fue enviada. Puedes cerrar esta página.',
    needFront: 'Primero agrega una foto del frente del documento.',
    failed: 'Algo salió mal. Inténtalo de nuevo.',
    invalidTitle: 'Este enlace no es válido',
    invalidBody: 'Vuelve a abrir el enlace que recibiste o pide uno nuevo.',
    expiredTitle: 'Este enlace ha caducado',
    expiredBody: 'Por tu seguridad, los enlaces de verificación caducan. Pide un enlace nuevo.',
    erasedTitle: 'Esta verificación ya no está disponible',
    passport: 'Pasaporte', national_id: 'Credencial / documento nacional', driving_licence: 'Licencia de conducir', residence_permit: 'Tarjeta de residencia',
  },
  pt: {
    title: 'Verifique a sua identidade',
    intro: 'Vai precisar do seu documento de identificação e de cerca de dois minutos. As suas fotos são usadas apenas para esta verificação.',
    document: 'Que documento vai usar?',
    front: 'Foto da frente do documento',
    back: 'Foto do verso do documento (se tiver)',
    selfie: 'Uma selfie: o seu rosto, bem iluminado, a olhar para a câmara',
    submit: 'Enviar',
    uploading: 'A enviar…',
    submitted: 'Obrigado. A sua verificação foi enviada; pode fechar esta página.',
    already: 'Esta verificação já foi enviada. Pode fechar esta página.',
    needFront: 'Adicione primeiro uma foto da frente do documento.',
    failed: 'Algo correu mal. Tente novamente.',
    invalidTitle: 'Esta ligação não é válida',
    invalidBody: 'Abra novamente a ligação que recebeu ou peça uma nova.',
    expiredTitle: 'Esta ligação expirou',
    expiredBody: 'Para sua segurança, as ligações de verificação expiram. Peça uma nova ligação.',
    erasedTitle: 'Esta verificação já não está disponível',
    passport: 'Passaporte', national_id: 'Bilhete de identidade', driving_licence: 'Carta de condução', residence_permit: 'Autorização de residência',
  },
} as const;

export type Locale = keyof typeof STRINGS;

/** The Case's locale, else the browser's Accept-Language, else English. */
export function pickLocale(caseLocale: string | null | undefined, acceptLanguage: string | undefined): Locale {
  if (caseLocale && caseLocale in STRINGS) return caseLocale as Locale;
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.trim().slice(0, 2).toLowerCase();
    if (tag in STRINGS) return tag as Locale;
  }
  return 'en';
}
