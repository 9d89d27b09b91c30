// The 16px paths of the icons the app shows, one chunk fetched once (icon-loader.ts); the same icons
// as paths-20.ts. paths.test.ts finds the icons web/src names and checks they are here.

import type { IconName, IconPaths } from '@blueprintjs/icons';
import annotationPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/annotation.js';
import archivePaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/archive.js';
import arrowDownPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/arrow-down.js';
import arrowLeftPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/arrow-left.js';
import arrowRightPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/arrow-right.js';
import arrowUpPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/arrow-up.js';
import bankAccountPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/bank-account.js';
import briefcasePaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/briefcase.js';
import caretDownPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/caret-down.js';
import chevronDownPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/chevron-down.js';
import chevronLeftPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/chevron-left.js';
import chevronRightPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/chevron-right.js';
import chevronUpPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/chevron-up.js';
import codePaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/code.js';
import cogPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/cog.js';
import collapseAllPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/collapse-all.js';
import commentPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/comment.js';
import creditCardPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/credit-card.js';
import crossPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/cross.js';
import dashboardPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/dashboard.js';
import deletePaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/delete.js';
import disablePaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/disable.js';
import documentPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/document.js';
import doubleCaretVerticalPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/double-caret-vertical.js';
import doubleChevronLeftPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/double-chevron-left.js';
import doubleChevronRightPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/double-chevron-right.js';
import downloadPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/download.js';
import duplicatePaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/duplicate.js';
import editPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/edit.js';
import endorsedPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/endorsed.js';
import envelopePaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/envelope.js';
import errorPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/error.js';
import expandAllPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/expand-all.js';
import eyeOffPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/eye-off.js';
import eyeOpenPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/eye-open.js';
import filterPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/filter.js';
import filterRemovePaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/filter-remove.js';
import floppyDiskPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/floppy-disk.js';
import historyPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/history.js';
import homePaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/home.js';
import inboxPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/inbox.js';
import infoSignPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/info-sign.js';
import issuePaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/issue.js';
import keyPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/key.js';
import labTestPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/lab-test.js';
import linkPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/link.js';
import lockPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/lock.js';
import logInPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/log-in.js';
import logOutPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/log-out.js';
import mapMarkerPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/map-marker.js';
import menuPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/menu.js';
import minusPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/minus.js';
import mobilePhonePaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/mobile-phone.js';
import notificationsPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/notifications.js';
import officePaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/office.js';
import pathSearchPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/path-search.js';
import peoplePaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/people.js';
import percentagePaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/percentage.js';
import personPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/person.js';
import phonePaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/phone.js';
import playPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/play.js';
import plusPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/plus.js';
import refreshPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/refresh.js';
import resetPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/reset.js';
import searchPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/search.js';
import searchTemplatePaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/search-template.js';
import sendMessagePaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/send-message.js';
import sharePaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/share.js';
import shieldPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/shield.js';
import shopPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/shop.js';
import smallCrossPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/small-cross.js';
import starPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/star.js';
import stopPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/stop.js';
import takeActionPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/take-action.js';
import thPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/th.js';
import tickPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/tick.js';
import tickCirclePaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/tick-circle.js';
import timePaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/time.js';
import timelineBarChartPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/timeline-bar-chart.js';
import timelineLineChartPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/timeline-line-chart.js';
import trashPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/trash.js';
import undoPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/undo.js';
import uploadPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/upload.js';
import userPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/user.js';
import videoPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/video.js';
import warningSignPaths from '@blueprintjs/icons/lib/esm/generated/16px/paths/warning-sign.js';

export const ICON_PATHS: Partial<Record<IconName, IconPaths>> = {
  annotation: annotationPaths,
  archive: archivePaths,
  'arrow-down': arrowDownPaths,
  'arrow-left': arrowLeftPaths,
  'arrow-right': arrowRightPaths,
  'arrow-up': arrowUpPaths,
  'bank-account': bankAccountPaths,
  briefcase: briefcasePaths,
  'caret-down': caretDownPaths,
  'chevron-down': chevronDownPaths,
  'chevron-left': chevronLeftPaths,
  'chevron-right': chevronRightPaths,
  'chevron-up': chevronUpPaths,
  code: codePaths,
  cog: cogPaths,
  'collapse-all': collapseAllPaths,
  comment: commentPaths,
  'credit-card': creditCardPaths,
  cross: crossPaths,
  dashboard: dashboardPaths,
  delete: deletePaths,
  disable: disablePaths,
  document: documentPaths,
  'double-caret-vertical': doubleCaretVerticalPaths,
  'double-chevron-left': doubleChevronLeftPaths,
  'double-chevron-right': doubleChevronRightPaths,
  download: downloadPaths,
  duplicate: duplicatePaths,
  edit: editPaths,
  endorsed: endorsedPaths,
  envelope: envelopePaths,
  error: errorPaths,
  'expand-all': expandAllPaths,
  'eye-off': eyeOffPaths,
  'eye-open': eyeOpenPaths,
  filter: filterPaths,
  'filter-remove': filterRemovePaths,
  'floppy-disk': floppyDiskPaths,
  history: historyPaths,
  home: homePaths,
  inbox: inboxPaths,
  'info-sign': infoSignPaths,
  issue: issuePaths,
  key: keyPaths,
  'lab-test': labTestPaths,
  link: linkPaths,
  lock: lockPaths,
  'log-in': logInPaths,
  'log-out': logOutPaths,
  'map-marker': mapMarkerPaths,
  menu: menuPaths,
  minus: minusPaths,
  'mobile-phone': mobilePhonePaths,
  notifications: notificationsPaths,
  office: officePaths,
  'path-search': pathSearchPaths,
  people: peoplePaths,
  percentage: percentagePaths,
  person: personPaths,
  phone: phonePaths,
  play: playPaths,
  plus: plusPaths,
  refresh: refreshPaths,
  reset: resetPaths,
  search: searchPaths,
  'search-template': searchTemplatePaths,
  'send-message': sendMessagePaths,
  share: sharePaths,
  shield: shieldPaths,
  shop: shopPaths,
  'small-cross': smallCrossPaths,
  star: starPaths,
  stop: stopPaths,
  'take-action': takeActionPaths,
  th: thPaths,
  tick: tickPaths,
  'tick-circle': tickCirclePaths,
  time: timePaths,
  'timeline-bar-chart': timelineBarChartPaths,
  'timeline-line-chart': timelineLineChartPaths,
  trash: trashPaths,
  undo: undoPaths,
  upload: uploadPaths,
  user: userPaths,
  video: videoPaths,
  'warning-sign': warningSignPaths,
};
